"""The family's own handwriting, learnt from the boxes they confirmed (issue 55).

Each sample is a digit as the model sees it (``digits.normalize``: 28 × 28, bright ink on
black) and the digit the family said it is. Reading a box, the samples nearest to it (the
cosine of their HOG features, ``digits.features``) vote for their digits, and the votes
are blended with the shipped model's chances: the more samples the family has given and
the nearer they are, the more they count. The caller keeps the samples (``to_bytes``,
``from_bytes``); nothing here writes a file.
"""

from __future__ import annotations

import io

import numpy as np

from . import digits

NEIGHBOURS = 5
#: how near (cosine) a sample must be for its vote to count fully
NEAR = 0.85
#: samples at which the family's votes count as much as the model's chances
HALF_WEIGHT = 20
MOST_WEIGHT = 0.6
LIMIT = 5000  # samples kept: the newest


class Hand:
    """A family's handwriting: samples (normalized digit image, digit)."""

    def __init__(self, images=(), labels=()):
        self.images = np.asarray(images, dtype=np.uint8).reshape(-1, digits.SIZE, digits.SIZE)
        self.labels = np.asarray(labels, dtype=np.uint8).reshape(-1)
        self._features = None

    def __len__(self):
        return len(self.labels)

    def add(self, image, digit):
        """One sample: ``image`` as ``digits.normalize`` gives it (0-1 floats), ``digit`` 0-9."""
        if image is None or not 0 <= int(digit) <= 9:
            return
        image = np.clip(np.asarray(image, dtype=np.float32) * 255, 0, 255).astype(np.uint8)
        self.images = np.concatenate([self.images, image[None]])[-LIMIT:]
        self.labels = np.concatenate([self.labels, [int(digit)]]).astype(np.uint8)[-LIMIT:]
        self._features = None

    def learn(self, reading, value):
        """The digits of a box the family confirmed as ``value`` (a ``BoxReading``), kept as
        samples where the boxes written hold as many digits as the value: how many were kept."""
        if value is None or reading.box.line.kind == "flag":
            return 0
        written = [image for image in reading.images if image is not None]
        text = str(abs(int(value)))
        if len(written) != len(text):
            return 0
        for image, character in zip(written, text):
            self.add(image, int(character))
        return len(text)

    def features(self):
        if self._features is None:
            found = digits.features(self.images.astype(np.float32) / 255.0) if len(self) else np.zeros((0, 1))
            self._features = found / np.maximum(np.linalg.norm(found, axis=1, keepdims=True), 1e-6)
        return self._features

    def blend(self, features, chances):
        """The model's ``chances`` (n, 10) of ``features`` (n, 1492), blended with the
        family's nearest samples' votes."""
        if len(self) == 0 or len(features) == 0:
            return chances
        own = self.features()
        wanted = features / np.maximum(np.linalg.norm(features, axis=1, keepdims=True), 1e-6)
        similar = wanted @ own.T  # (n, samples)
        k = min(NEIGHBOURS, len(self))
        nearest = np.argpartition(-similar, k - 1, axis=1)[:, :k]
        closeness = np.take_along_axis(similar, nearest, axis=1)
        weights = np.exp((closeness - 1.0) / 0.05)
        votes = np.zeros_like(chances)
        np.add.at(votes, (np.arange(len(votes))[:, None], self.labels[nearest]), weights)
        votes /= np.maximum(votes.sum(axis=1, keepdims=True), 1e-12)
        share = MOST_WEIGHT * len(self) / (len(self) + HALF_WEIGHT)
        share = share * np.clip((closeness.max(axis=1, keepdims=True) - 0.5) / (NEAR - 0.5), 0.0, 1.0)
        return (1.0 - share) * chances + share * votes

    def to_bytes(self):
        buffer = io.BytesIO()
        np.savez_compressed(buffer, images=self.images, labels=self.labels)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data):
        with np.load(io.BytesIO(data)) as saved:
            return cls(saved["images"], saved["labels"])
