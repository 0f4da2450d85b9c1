"""A photo of a readable sheet found and flattened (issue 55): NumPy, Pillow and zxing-cpp.

Over 400 lines: decoding, the QR code, the markers, matching them to the page and
flattening are one path through the photo, each step reading what the one before found.

The photo is decoded by Pillow (any format it reads, its EXIF orientation applied, a
picture of too many pixels refused before its pixels are read). zxing-cpp reads the QR
code from the whole photo, scaled down: the code names the game, the layout and the page
(``printing.layout.read_code``), and where it lies says which way up the page is. The four
solid corner markers are windows almost all dark, in a ring that may hold a rotated
square's corners, in a wider ring almost all light (integral images, no labelling
library; ``scripts/measure_reader_libraries.py`` measured the way); each is then placed
to a fraction of a pixel by the centre of its dark pixels in the full photo. Of the
markers found, the four (or, a corner cut off, three) that put the QR code where the
layout prints it, its corners on an upright square (``code_fit``), are the page's
corners, in the page's own order whatever way up the photo was taken; with three, the QR
code's own corners stand in for the fourth (``with_code``). A perspective transform
(Pillow) flattens the page to ``DPI`` dots per inch, in the layout's millimetres.
"""

from __future__ import annotations

import io
import itertools
import warnings
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from ..printing import layout
from ..scoring.language import _

DPI = 150  # the flattened page: 6 px a millimetre
MAX_PIXELS = 64_000_000  # a photo of more pixels is refused before it is decoded (a 12 MP phone: 12)
MAX_BYTES = 40_000_000  # ... and a file this big before it is opened
WORKING = 1000  # the markers are looked for in the photo scaled to this long side
QR_LONG_SIDE = 2000  # the QR code is looked for in the photo scaled to this long side first
#: the QR code's centre as the markers put it may be this far from where it was read (mm)
QR_TOLERANCE_MM = 6.0
#: ... and its corners, taken back to the page, this far from a square upright there (mm)
QR_SQUARE_MM = 3.0
#: a page whose markers' edges are this blurred (mm from light to dark) is not read
BLURRED_MM = 1.1


class NotAnImage(ValueError):
    """The file is no picture Pillow reads, or one too big to read."""


class NoSheet(ValueError):
    """No readable sheet in the photo: its corner markers or its QR code are not there."""


class NoCode(ValueError):
    """A sheet's corner markers, but its QR code cannot be read."""


@dataclass(frozen=True)
class Found:
    """A photographed sheet, found and flattened.

    ``page`` is the flattened page's red channel (the box lines' light red fades into the
    paper there, a pen's ink stays), uint8, ``DPI`` dots per inch, the layout's millimetre
    frame; ``image`` the same page in colour (cut-outs); ``inside`` whether each pixel of
    it was in the photo (a corner cut off); ``blur`` how many millimetres the markers'
    edges take from light to dark; ``corners`` the marker centres in the photo (top left,
    top right, bottom right, bottom left of the page; one estimated where ``missing``)."""

    code: layout.SheetCode
    page: np.ndarray
    image: Image.Image
    gray: np.ndarray  # the page's luminance: the box lines show there, to measure blur by
    inside: np.ndarray
    blur: float
    corners: tuple
    missing: int | None = None  # the corner cut off (0-3 as in ``corners``), or None

    @property
    def blurred(self):
        return self.blur > BLURRED_MM

    def px(self, mm):
        """Millimetres as pixels of the flattened page."""
        return mm * DPI / 25.4


class _Watched(io.BytesIO):
    """The photo's bytes, noting when decoding runs out of them. WeasyPrint sets Pillow's
    ``ImageFile.LOAD_TRUNCATED_IMAGES`` for the whole process when it is imported (the app
    prints sheets), and then a picture cut short loads padded with grey instead of failing:
    a read that finds no more bytes while the image loads is how one is told apart."""

    watching = False
    ended = False

    def read(self, size=-1):
        data = super().read(size)
        if self.watching and size != 0 and not data:
            self.ended = True
        return data


def open_photo(data):
    """The photo as an RGB Pillow image, turned as its EXIF orientation says."""
    if not isinstance(data, bytes | bytearray | memoryview) or len(data) == 0:
        raise NotAnImage(_("This file is not a picture."))
    if len(data) > MAX_BYTES:
        raise NotAnImage(_("This picture is too big to read: send the camera's photo as it is."))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            file = _Watched(data)
            image = Image.open(file)
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise NotAnImage(
                    _("This picture has too many pixels to read: send the camera's photo as it is.")
                )
            file.watching = True
            image.load()
            if file.ended:  # cut short: Pillow pads it where WeasyPrint told it to (see _Watched)
                raise NotAnImage(_("This file is not a picture."))
            return ImageOps.exif_transpose(image).convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as bomb:
        raise NotAnImage(
            _("This picture has too many pixels to read: send the camera's photo as it is.")
        ) from bomb
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
        if isinstance(error, NotAnImage):
            raise
        raise NotAnImage(_("This file is not a picture.")) from error


def read_qr(gray):
    """(text, four corners in ``gray``'s pixels) of the readable sheet's QR code, or None."""
    import zxingcpp

    found = zxingcpp.read_barcodes(gray, formats=zxingcpp.BarcodeFormat.QRCode)
    for barcode in found:
        if layout.read_code(barcode.text) is not None:
            p = barcode.position
            points = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
            return barcode.text, np.array([(q.x, q.y) for q in points], dtype=float)
    return None


def _window_sums(table, rows, columns, side):
    """The sums of the ``side`` × ``side`` windows centred on ``rows`` × ``columns`` (two
    runs of consecutive numbers, ``np.arange``) of the picture whose summed-area table is
    ``table``: four slices of it, not four gathers by index (a quarter of the time)."""
    top, left = rows[0] - side // 2, columns[0] - side // 2
    bottom, right = top + side, left + side
    height, width = len(rows), len(columns)
    return (
        table[bottom : bottom + height, right : right + width]
        - table[top : top + height, right : right + width]
        - table[bottom : bottom + height, left : left + width]
        + table[top : top + height, left : left + width]
    )


def marker_candidates(small, limit=10):
    """[(score, x, y, side)] of the likeliest corner markers in a small grayscale photo
    (float32), best first: a window almost all dark, a ring that may hold a rotated
    square's corners, a wider ring almost all light."""
    height, width = small.shape
    if min(height, width) < 60:
        return []
    table = np.pad(small, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    local = _window_sums(table, np.arange(25, height - 26), np.arange(25, width - 26), 51) / 51**2
    local = np.pad(local, ((25, 26), (25, 26)), mode="edge")
    dark = (small < local - 25).astype(np.float32)
    table = np.pad(dark, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    points = []
    for side in range(6, 49, 2):
        middle, outer = round(side * 1.6), round(side * 2.4)
        half = outer // 2 + 1
        if 2 * half + 2 >= min(height, width):
            break
        rows, columns = np.arange(half, height - half), np.arange(half, width - half)
        inner = _window_sums(table, rows, columns, side)
        ring = _window_sums(table, rows, columns, middle)
        beyond = _window_sums(table, rows, columns, outer)
        inner_fill = inner / side**2
        ring_fill = (ring - inner) / (middle**2 - side**2)
        beyond_fill = (beyond - ring) / (outer**2 - middle**2)
        passing = (inner_fill >= 0.85) & (ring_fill <= 0.5) & (beyond_fill <= 0.1)
        r, c = np.nonzero(passing)
        if len(r) > 4000:  # a picture of something else: keep its best
            keep = np.argpartition(-(inner_fill - ring_fill)[r, c], 4000)[:4000]
            r, c = r[keep], c[keep]
        score = side + inner_fill[r, c] - ring_fill[r, c]
        offset = -(side // 2) + side / 2
        points += zip(score, columns[c] + offset, rows[r] + offset, itertools.repeat(side))
    points.sort(key=lambda p: -p[0])
    chosen = []
    for score, x, y, side in points:
        if all((x - cx) ** 2 + (y - cy) ** 2 > (1.5 * max(side, cs)) ** 2 for _, cx, cy, cs in chosen):
            chosen.append((float(score), float(x), float(y), side))
            if len(chosen) == limit:
                break
    return chosen


def refine(gray, x, y, side):
    """The centre of the dark square near (x, y) in the full photo (``side``: the dark
    window's side there), to a fraction of a pixel; (x, y) as they were if none is there."""
    half = int(side * 1.1) + 2
    top, left = max(0, int(y) - half), max(0, int(x) - half)
    crop = gray[top : int(y) + half + 1, left : int(x) + half + 1].astype(np.float32)
    if crop.size == 0:
        return x, y
    low, high = np.percentile(crop, 5), np.percentile(crop, 95)
    if high - low < 30:
        return x, y
    dark = crop < (low + high) / 2
    # the dark pixels joined to the middle (the QR code may be in the window too)
    centre = (min(int(y) - top, dark.shape[0] - 1), min(int(x) - left, dark.shape[1] - 1))
    if not dark[centre]:
        return x, y
    joined = np.zeros_like(dark)
    joined[centre] = True
    for _step in range(2 * half):
        grown = joined.copy()
        grown[1:] |= joined[:-1]
        grown[:-1] |= joined[1:]
        grown[:, 1:] |= joined[:, :-1]
        grown[:, :-1] |= joined[:, 1:]
        grown &= dark
        if (grown == joined).all():
            break
        joined = grown
    rows, columns = np.nonzero(joined)
    return left + columns.mean() + 0.5, top + rows.mean() + 0.5


def homography(source, target):
    """The 3 × 3 matrix taking four (or more) source points to target points."""
    rows = []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=float))
    return vt[-1].reshape(3, 3) / vt[-1, -1]


def affine(source, target):
    """The 3 × 3 matrix of the affine map taking three source points to three target points."""
    source = np.c_[np.asarray(source, dtype=float), np.ones(3)]
    solved = np.linalg.solve(source, np.asarray(target, dtype=float))  # (3, 2)
    return np.r_[solved.T, [[0.0, 0.0, 1.0]]]


def apply(matrix, points):
    points = np.c_[np.asarray(points, dtype=float), np.ones(len(points))] @ matrix.T
    return points[:, :2] / points[:, 2:]


def _clockwise(points):
    centre = np.mean(points, axis=0)
    return sorted(
        range(len(points)), key=lambda i: np.arctan2(points[i][1] - centre[1], points[i][0] - centre[0])
    )


def marker_centres_mm(page):
    """The page's four marker centres (mm): top left, top right, bottom right, bottom left."""
    half = layout.MARKER_MM / 2
    tl, tr, bl, br = page.markers
    return np.array([(x + half, y + half) for x, y in (tl, tr, br, bl)])


def code_fit(matrix, qr_points, page):
    """(how far the QR code's centre lies from where the layout prints it, how far its four
    corners are from a square upright on the page), both in mm, of the page placed in the
    photo by ``matrix`` (page mm to photo): the code's corners as read (``qr_points``, its
    own top left first) taken back to the page. Four markers that are not the page's can
    put the code's centre in its place by chance, never its corners on a square."""
    try:
        back = apply(np.linalg.inv(matrix), qr_points)
    except np.linalg.LinAlgError:
        return float("inf"), float("inf")
    if not np.all(np.isfinite(back)):
        return float("inf"), float("inf")
    centre = back.mean(axis=0)
    printed = np.array([page.qr[0] + layout.QR_SIZE_MM / 2, page.qr[1] + layout.QR_SIZE_MM / 2])
    side = float(np.mean(np.hypot(*(back - np.roll(back, -1, axis=0)).T)))
    square = centre + np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) / 2 * side
    return float(np.hypot(*(centre - printed))), float(np.abs(back - square).max())


def corners_by_code(candidates, qr_points, page):
    """(matrix from the page's mm to the photo, the page corner left out or None) of the
    markers that put the QR code (its four corners in the photo, ``qr_points``) where the
    layout prints it, upright and square (``code_fit``), or None."""
    mm = marker_centres_mm(page)
    points = [(x, y) for _, x, y, _ in candidates]
    best = None
    for count in (4, 3):
        for subset in itertools.combinations(range(len(points)), count):
            chosen = [points[i] for i in subset]
            order = [chosen[i] for i in _clockwise(chosen)]
            for missing in (None,) if count == 4 else range(4):
                corners = [i for i in range(4) if i != missing]
                for shift in range(count):
                    target = order[shift:] + order[:shift]
                    source = mm[corners]
                    try:
                        matrix = homography(source, target) if count == 4 else affine(source, target)
                    except np.linalg.LinAlgError:
                        continue
                    if not np.all(np.isfinite(matrix)):
                        continue
                    off, shape = code_fit(matrix, qr_points, page)
                    if (
                        off < QR_TOLERANCE_MM
                        and shape < QR_SQUARE_MM
                        and (best is None or off + shape < best[0])
                    ):
                        best = (off + shape, matrix, missing)
        if best is not None:
            return best[1], best[2]
    return None


def with_code(matrix, missing, page, qr_points):
    """The page's matrix from three markers (an affine map: ``missing`` the fourth) made a
    perspective one by the QR code's four corners as well: the code's side in the
    layout's mm is its printer's (a quiet zone inside ``QR_SIZE_MM``), the side whose
    homography puts the seven points best."""
    mm = marker_centres_mm(page)
    corners = [i for i in range(4) if i != missing]
    source = mm[corners]
    target = apply(matrix, source)
    centre = np.array([page.qr[0] + layout.QR_SIZE_MM / 2, page.qr[1] + layout.QR_SIZE_MM / 2])
    square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)]) / 2
    best = None
    for side in np.linspace(0.5, 1.0, 51) * layout.QR_SIZE_MM:
        points = np.r_[source, centre + square * side]
        fitted = homography(points, np.r_[target, qr_points])
        error = float(np.abs(apply(fitted, points) - np.r_[target, qr_points]).max())
        if best is None or error < best[0]:
            best = (error, fitted)
    return best[1]


def edge_blur(page, markers_px, side_px):
    """How many pixels the markers' edges take from light to dark (the median of the four)."""
    widths = []
    for x, y in markers_px:
        half = int(side_px * 0.9)
        crop = page[int(y) - half : int(y) + half, int(x) - half : int(x) + half].astype(np.float32)
        if crop.shape != (2 * half, 2 * half):
            continue
        low, high = np.percentile(crop, 3), np.percentile(crop, 97)
        if high - low < 30:
            continue
        middle = slice(half // 2, 3 * half // 2)  # rows and columns that cross the marker
        gx = np.abs(np.diff(crop[middle], axis=1))
        gy = np.abs(np.diff(crop[:, middle], axis=0))
        steep = np.sort(np.concatenate([gx.max(axis=1), gy.max(axis=0)]))  # one per edge crossing
        widths.append((high - low) / max(float(np.median(steep)), 1e-3))
    return float(np.median(widths)) if widths else float("inf")


def find(data):
    """The sheet in a photo (bytes of any format Pillow reads), found and flattened: a
    ``Found``. Raises ``NotAnImage``, ``NoSheet`` or ``NoCode`` with the family's message.
    The markers and the QR code are where every layout of the paper puts them."""
    photo = open_photo(data)
    gray_image = photo.convert("L")
    gray = np.asarray(gray_image)
    shrink = min(1.0, QR_LONG_SIDE / max(photo.size))
    small_qr = gray_image.resize((round(photo.width * shrink), round(photo.height * shrink)), Image.BOX)
    qr = read_qr(np.asarray(small_qr))
    if qr is None and shrink < 1.0:
        qr, shrink = read_qr(gray), 1.0
    shrink_markers = min(1.0, WORKING / max(photo.size))
    small = gray_image.resize(
        (round(photo.width * shrink_markers), round(photo.height * shrink_markers)), Image.BOX
    )
    candidates = marker_candidates(np.asarray(small, dtype=np.float32))
    if candidates:
        biggest = candidates[0][3]
        candidates = [c for c in candidates if c[3] >= biggest * 0.45][:8]
    if qr is None:
        if len(candidates) >= 3:
            raise NoCode(
                _(
                    "This looks like a score sheet, but its QR code cannot be read: take the photo "
                    "again, closer, in good light, the QR code sharp."
                )
            )
        raise NoSheet(_no_sheet())
    text, qr_points = qr
    code = layout.read_code(text)
    refined = [
        (score, *np.array(refine(gray, x / shrink_markers, y / shrink_markers, side / shrink_markers)), side)
        for score, x, y, side in candidates
    ]
    page = _any_page(code.paper)
    matched = corners_by_code(refined, qr_points / shrink, page)
    if matched is None:
        raise NoSheet(_no_sheet())
    to_photo, missing = matched
    if missing is not None:
        to_photo = with_code(to_photo, missing, page, qr_points / shrink)
    return flatten(photo, code, to_photo, missing, page)


def _no_sheet():
    return _(
        "No score sheet found in this photo. Take it again with the whole page in the picture, "
        "its four black corners showing, in even light."
    )


def _any_page(paper):
    width, height = layout.PAGE_MM[paper]
    e, m = layout.EDGE_MM, layout.MARKER_MM
    markers = ((e, e), (width - e - m, e), (e, height - e - m), (width - e - m, height - e - m))
    return layout.Page(1, 1, (), (), (), (), markers, (width - e - layout.QR_SIZE_MM, e + m + 1.0))


def flatten(photo, code, to_photo, missing, page):
    """The ``Found`` of a photo whose page's mm map to its pixels by ``to_photo``."""
    width_mm, height_mm = layout.PAGE_MM[code.paper]
    size = (round(width_mm / 25.4 * DPI), round(height_mm / 25.4 * DPI))
    per_pixel = 25.4 / DPI
    # Pillow maps each output pixel (its centre) back to the photo
    matrix = to_photo @ np.array([[per_pixel, 0, per_pixel / 2], [0, per_pixel, per_pixel / 2], [0, 0, 1]])
    matrix = matrix @ np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    coefficients = tuple((matrix / matrix[2, 2]).ravel()[:8])
    image = photo.transform(size, Image.PERSPECTIVE, coefficients, Image.BILINEAR, fillcolor=(255, 255, 255))
    seen = Image.new("L", photo.size, 255).transform(size, Image.PERSPECTIVE, coefficients, Image.NEAREST)
    red = np.asarray(image.getchannel("R"))
    mm = marker_centres_mm(page)
    markers_px = mm * DPI / 25.4
    gray = np.asarray(image.convert("L"))
    blur = edge_blur(gray, markers_px, layout.MARKER_MM * DPI / 25.4) * per_pixel
    corners = tuple(map(tuple, apply(to_photo, mm)))
    return Found(code, red, image, gray, np.asarray(seen) > 0, blur, corners, missing)
