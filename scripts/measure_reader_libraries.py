"""How fast each candidate library finds a photographed sheet and reads its QR code (issue 55,
docs/READER.md): a measurement to choose by, not part of the app.

    .venv/bin/pip install opencv-python-headless scikit-image   # the candidates, measured
    .venv/bin/python scripts/measure_reader_libraries.py

A page like the printed sheet (four solid corner markers, a QR code naming the game and the
page, a grid of boxes) is photographed in simulation, seeded: 12 MP, tilted and rotated,
on a dark table, blurred, lit unevenly, saved as JPEG at 75. Each way finds the four
markers, flattens the page to 150 dpi, and reads the QR code; for each way it prints the
pages found with their four corners within 8 px of where they were drawn, the worst corner,
and the median time (each photo timed three times).

- OpenCV (``opencv-python-headless``): threshold, connected components, ``warpPerspective``;
  its own ``QRCodeDetector``.
- SciPy and Pillow: threshold in NumPy, ``scipy.ndimage.label`` for the markers (what
  scikit-image's ``measure.label`` does too, on SciPy), Pillow's perspective transform.
- NumPy and Pillow alone: a marker is a window almost all dark, then a ring that may hold a
  rotated square's corners, then a ring almost all light, found with integral images (no
  labelling library); Pillow's perspective transform.
- zxing-cpp and OpenCV's ``QRCodeDetector`` read the QR code from each flattened page,
  and from a whole photo.
"""

from __future__ import annotations

import io
import statistics
import time

import numpy as np
import segno
from PIL import Image, ImageDraw, ImageFilter

SEED = 55
PAGE = (1240, 1754)  # A4 at 150 dpi: the flattened page
MARKER = 45  # a corner marker's side at 150 dpi (7.6 mm)
INSET = 60
QR_TEXT = "scorekeeper:game=12;layout=2;page=1"
PHOTOS = 12


def printed_page():
    """The sheet as printed, 150 dpi, grayscale: markers, QR code, a grid of boxes."""
    page = Image.new("L", PAGE, 255)
    draw = ImageDraw.Draw(page)
    width, height = PAGE
    for x, y in ((INSET, INSET), (width - INSET - MARKER, INSET), (INSET, height - INSET - MARKER)):
        draw.rectangle((x, y, x + MARKER, y + MARKER), fill=0)
    x, y = width - INSET - MARKER, height - INSET - MARKER
    draw.rectangle((x, y, x + MARKER, y + MARKER), fill=0)
    qr = segno.make(QR_TEXT, error="m")
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=5, border=2)
    page.paste(Image.open(buffer).convert("L"), (width - 300, 140))
    for row in range(30):
        for column in range(20):
            left, top = 160 + column * 48, 420 + row * 40
            draw.rectangle((left, top, left + 42, top + 34), outline=170, width=2)
    return page


def corners_drawn():
    width, height = PAGE
    half = MARKER / 2
    return np.array(
        [
            (INSET + half, INSET + half),
            (width - INSET - half, INSET + half),
            (width - INSET - half, height - INSET - half),
            (INSET + half, height - INSET - half),
        ]
    )


def photographed(page, rng):
    """The page as a 12 MP phone photo (3000 × 4000), and where its marker centres went."""
    width, height = 3000, 4000
    scale = 2.0
    angle = np.deg2rad(rng.uniform(-15, 15))
    tilt = rng.uniform(0.05, 0.2)
    source = np.array([(0, 0), (PAGE[0], 0), (PAGE[0], PAGE[1]), (0, PAGE[1])], dtype=float)
    centre = source.mean(axis=0)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    target = (source - centre) * scale @ rotation.T
    target[:2, 0] *= 1 - tilt  # the top edge farther from the camera
    target += (width / 2, height / 2)
    forward = homography(source, target)
    inverse = np.linalg.inv(forward)
    coefficients = (inverse / inverse[2, 2]).ravel()[:8]
    table = Image.new("L", (width, height), 70)
    mask = Image.new("L", PAGE, 255).transform((width, height), Image.PERSPECTIVE, coefficients)
    paper = page.transform((width, height), Image.PERSPECTIVE, coefficients, Image.BILINEAR)
    photo = Image.composite(paper, table, mask)
    light = np.linspace(0.7, 1.0, width)[None, :] * np.linspace(0.85, 1.0, height)[:, None]
    pixels = np.asarray(photo, dtype=np.float32) * light + rng.normal(0, 4, (height, width))
    photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(1.5))
    buffer = io.BytesIO()
    photo.convert("RGB").save(buffer, "JPEG", quality=75)
    return buffer.getvalue(), apply(forward, corners_drawn())


def homography(source, target):
    """The 3 × 3 matrix taking four source points to four target points."""
    rows = []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
    _, _, vt = np.linalg.svd(np.array(rows, dtype=float))
    return vt[-1].reshape(3, 3) / vt[-1, -1]


def apply(matrix, points):
    points = np.c_[points, np.ones(len(points))] @ matrix.T
    return points[:, :2] / points[:, 2:]


def ordered(centres):
    """Four points as top left, top right, bottom right, bottom left."""
    centres = np.asarray(centres, dtype=float)
    total, difference = centres.sum(axis=1), centres[:, 0] - centres[:, 1]
    return centres[[total.argmin(), difference.argmax(), total.argmax(), difference.argmin()]]


def markers_from_blobs(blobs, shrink):
    """The four blobs most like solid squares of the marker's size, as photo coordinates."""
    squares = [b for b in blobs if b["fill"] >= 0.65 and 0.6 <= b["aspect"] <= 1.67 and b["area"] >= 40]
    squares.sort(key=lambda b: -b["area"])
    if len(squares) < 4:
        return None
    return ordered([b["centre"] for b in squares[:4]]) / shrink


def find_with_opencv(data):
    import cv2

    photo = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    shrink = 1000 / max(photo.shape)
    small = cv2.resize(photo, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    dark = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 51, 25)
    count, _, stats, centres = cv2.connectedComponentsWithStats(dark)
    blobs = [
        {
            "area": int(stats[i, cv2.CC_STAT_AREA]),
            "fill": stats[i, cv2.CC_STAT_AREA] / (stats[i, cv2.CC_STAT_WIDTH] * stats[i, cv2.CC_STAT_HEIGHT]),
            "aspect": stats[i, cv2.CC_STAT_WIDTH] / stats[i, cv2.CC_STAT_HEIGHT],
            "centre": tuple(centres[i] + 0.5),
        }
        for i in range(1, count)
    ]
    corners = markers_from_blobs(blobs, shrink)
    if corners is None:
        return None, None
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), corners_drawn().astype(np.float32))
    page = cv2.warpPerspective(photo, matrix, PAGE, flags=cv2.INTER_LINEAR)
    return corners, page


def find_with_scipy_and_pillow(data):
    from scipy import ndimage

    photo = Image.open(io.BytesIO(data)).convert("L")
    shrink = 1000 / max(photo.size)
    small = np.asarray(
        photo.resize((round(photo.width * shrink), round(photo.height * shrink)), Image.BOX), dtype=np.float32
    )
    local = ndimage.uniform_filter(small, 51)
    dark = small < local - 25
    labels, _ = ndimage.label(dark)
    blobs = []
    for index, found in enumerate(ndimage.find_objects(labels), start=1):
        rows, columns = found
        h, w = rows.stop - rows.start, columns.stop - columns.start
        inside = labels[found] == index
        area = int(inside.sum())
        ys, xs = np.nonzero(inside)
        blobs.append(
            {
                "area": area,
                "fill": area / (w * h),
                "aspect": w / h,
                "centre": (columns.start + xs.mean() + 0.5, rows.start + ys.mean() + 0.5),
            }
        )
    corners = markers_from_blobs(blobs, shrink)
    if corners is None:
        return None, None
    to_photo = homography(corners_drawn(), corners)  # Pillow maps each output pixel back
    page = photo.transform(PAGE, Image.PERSPECTIVE, (to_photo / to_photo[2, 2]).ravel()[:8], Image.BILINEAR)
    return corners, np.asarray(page)


def window_sums(table, rows, columns, side):
    """The sums of the side × side windows centred on each (row, column) pair of the grid,
    from an integral image."""
    top, left = rows - side // 2, columns - side // 2
    bottom, right = top + side, left + side
    return (
        table[bottom[:, None], right]
        - table[top[:, None], right]
        - table[bottom[:, None], left]
        + table[top[:, None], left]
    )


def find_with_numpy_and_pillow(data):
    """No labelling library: a marker is a window almost all dark, in a ring that may hold
    the corners of a rotated square, in a wider ring almost all light; found with integral
    images, the largest in each quarter of the photo."""
    photo = Image.open(io.BytesIO(data)).convert("L")
    shrink = 1000 / max(photo.size)
    small = np.asarray(
        photo.resize((round(photo.width * shrink), round(photo.height * shrink)), Image.BOX), dtype=np.float32
    )
    height, width = small.shape
    table = np.pad(small, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    local = window_sums(table, np.arange(25, height - 26), np.arange(25, width - 26), 51) / 51**2
    local = np.pad(local, ((25, 26), (25, 26)), mode="edge")
    dark = (small < local - 25).astype(np.float32)
    table = np.pad(dark, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    best = {}  # quarter -> (score, centre)
    for side in range(6, 41, 2):
        middle, outer = round(side * 1.6), round(side * 2.4)
        half = outer // 2 + 1
        rows, columns = np.arange(half, height - half), np.arange(half, width - half)
        inner = window_sums(table, rows, columns, side)
        ring = window_sums(table, rows, columns, middle)
        beyond = window_sums(table, rows, columns, outer)
        inner_fill = inner / side**2
        ring_fill = (ring - inner) / (middle**2 - side**2)
        beyond_fill = (beyond - ring) / (outer**2 - middle**2)
        passing = (inner_fill >= 0.85) & (ring_fill <= 0.5) & (beyond_fill <= 0.1)
        score = np.where(passing, side + inner_fill - ring_fill, -1)
        for quarter_row in (0, 1):
            for quarter_column in (0, 1):
                part_rows = slice(quarter_row * len(rows) // 2, (1 + quarter_row) * len(rows) // 2)
                across = len(columns)
                part_columns = slice(quarter_column * across // 2, (1 + quarter_column) * across // 2)
                part = score[part_rows, part_columns]
                if part.size == 0:
                    continue
                index = np.unravel_index(part.argmax(), part.shape)
                if part[index] > best.get((quarter_row, quarter_column), (-1, None))[0]:
                    row = rows[part_rows][index[0]] - side // 2 + side / 2
                    column = columns[part_columns][index[1]] - side // 2 + side / 2
                    best[(quarter_row, quarter_column)] = (part[index], (column, row))
    if len(best) < 4 or min(found for found, _ in best.values()) <= 0:
        return None, None
    corners = ordered([centre for _, centre in best.values()]) / shrink
    to_photo = homography(corners_drawn(), corners)
    page = photo.transform(PAGE, Image.PERSPECTIVE, (to_photo / to_photo[2, 2]).ravel()[:8], Image.BILINEAR)
    return corners, np.asarray(page)


def read_qr_zxing(page):
    import zxingcpp

    found = zxingcpp.read_barcodes(page, formats=zxingcpp.BarcodeFormat.QRCode)
    return found[0].text if found else None


def read_qr_opencv(page):
    import cv2

    text, _, _ = cv2.QRCodeDetector().detectAndDecode(page)
    return text or None


def timed(function, *arguments, runs=3):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = function(*arguments)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    rng = np.random.default_rng(SEED)
    page = printed_page()
    photos = [photographed(page, rng) for _ in range(PHOTOS)]
    kilobytes = sum(len(data) for data, _ in photos) // len(photos) // 1000
    print(f"{len(photos)} photos of 3000 x 4000, JPEG {kilobytes} kB")
    finders = (
        ("OpenCV", find_with_opencv),
        ("SciPy + Pillow", find_with_scipy_and_pillow),
        ("NumPy + Pillow", find_with_numpy_and_pillow),
    )
    for name, find in finders:
        seconds, errors, qr = [], [], {"zxing-cpp": [], "OpenCV QR": []}
        for data, truth in photos:
            took, (corners, flat) = timed(find, data)
            seconds.append(took)
            errors.append(np.inf if corners is None else float(np.abs(corners - truth).max()))
            if flat is not None:
                for reader, read in (("zxing-cpp", read_qr_zxing), ("OpenCV QR", read_qr_opencv)):
                    took, text = timed(read, np.ascontiguousarray(flat))
                    qr[reader].append((took, text == QR_TEXT))
        found = [error for error in errors if error <= 8]
        worst = f"{max(found):.1f} px of the photo" if found else "-"
        print(
            f"{name}: {len(found)}/{len(photos)} pages found and flattened in "
            f"{statistics.median(seconds):.3f} s (median); corners off by at most {worst}"
        )
        for reader, results in qr.items():
            if results:
                read = sum(ok for _, ok in results)
                milliseconds = statistics.median(t for t, _ in results) * 1000
                took = f"{read}/{len(results)} read, {milliseconds:.0f} ms"
                print(f"  QR by {reader} on the flattened page: {took}")
    for data, _ in photos[:1]:
        photo = np.asarray(Image.open(io.BytesIO(data)).convert("L"))
        took, text = timed(read_qr_zxing, photo)
        print(
            f"zxing-cpp on the whole 12 MP photo: {'read' if text == QR_TEXT else 'not read'}, {took:.3f} s"
        )
        took, text = timed(read_qr_opencv, photo)
        print(
            f"OpenCV QR on the whole 12 MP photo: {'read' if text == QR_TEXT else 'not read'}, {took:.3f} s"
        )


if __name__ == "__main__":
    main()
