"""The reader learns the family's hand (issue 55).

A "family" writes its digits another way than the dataset: continental 1s (a flag at the
top), 7s with a bar, every digit leaning right in a thicker pen (``photos.family_style``,
drawn over the 1,000 held-out MNIST digits). The shipped model reads that hand worse; the
boxes of a few corrected games (their digits, ``Hand`` samples) make it read better.

Measured with this seed: the model alone reads 89.4 % of the family's 500 test digits
(its 1s: 56 %); with 300 samples (three games' boxes, drawn from the family's other 500
digits) it reads 93.6 % (1s: 98 %), and the dataset's own digits 98.6 % (98.6 % before).
(With the model before, a perceptron on HOG features: 88.2 % (1s: 42 %), 92.0 % (1s:
96 %), 97.6 %.) The fixture takes about a second (1,500 digits normalized), the test
another (the features of 1,300 digits, twice).
"""

import numpy as np
import pytest

from scorekeeper import reading
from scorekeeper.printing import layout
from scorekeeper.reading import digits
from scorekeeper.scoring import RULESETS
from tests import photos

SEED = 55
BEFORE_AT_MOST = 0.90  # the family's digits read right by the model alone
AFTER_AT_LEAST = 0.91  # ... with three games of samples
ONES_BEFORE_AT_MOST, ONES_AFTER_AT_LEAST = 0.6, 0.9
PLAIN_AFTER_AT_LEAST = 0.96  # the dataset's own digits, still read


def as_paper(images):
    return 235.0 - np.asarray(images, dtype=np.float32) / 255.0 * 195.0


@pytest.fixture(scope="module")
def family():
    images, labels = photos.held_out()
    rng = np.random.default_rng(SEED)
    styled = np.stack([photos.family_style(image, label, rng) for image, label in zip(images, labels)])
    taught = np.concatenate([np.flatnonzero(labels == d)[:50] for d in range(10)])
    tested = np.setdiff1d(np.arange(len(labels)), taught)
    normalized = [digits.normalize(box) for box in as_paper(styled)]
    plain = np.stack([digits.normalize(box) for box in as_paper(images[tested])])
    return labels, normalized, taught, tested, plain, rng


def read_right(hand, images, labels):
    chances = digits.probabilities(np.stack(images))
    if hand is not None:
        chances = hand.blend(digits.features(np.stack(images)), chances)
    read = chances.argmax(axis=1)
    return (read == labels).mean(), (read[labels == 1] == 1).mean()


def test_the_family_hand_is_read_better_after_three_corrected_games(family):
    labels, normalized, taught, tested, plain, rng = family
    images = [normalized[i] for i in tested]
    before, ones_before = read_right(None, images, labels[tested])
    assert before <= BEFORE_AT_MOST and ones_before <= ONES_BEFORE_AT_MOST
    # three games' boxes confirmed by the family: 300 of their digits
    hand = reading.Hand()
    for i in rng.choice(taught, 300, replace=False):
        hand.add(normalized[i], labels[i])
    after, ones_after = read_right(hand, images, labels[tested])
    assert after >= AFTER_AT_LEAST and after > before + 0.03
    assert ones_after >= ONES_AFTER_AT_LEAST
    assert read_right(hand, list(plain), labels[tested])[0] >= PLAIN_AFTER_AT_LEAST
    # kept by the caller as bytes, and read back the same
    again = reading.Hand.from_bytes(hand.to_bytes())
    assert len(again) == 300 and read_right(again, images, labels[tested])[0] == after


def test_a_confirmed_box_gives_its_digits_as_samples(family):
    _, normalized, *_ = family
    geom = layout.geometry(RULESETS["friends-family"], 2, 3, "letter")
    box = next(b for b in geom.boxes() if b.name == "melded_points")
    blank = digits.Reading(None, 1.0)
    cells = (blank, digits.Reading(3, 0.6), digits.Reading(1, 0.9), digits.Reading(5, 0.99))
    images = (None, normalized[0], normalized[1], normalized[2])
    read = reading.BoxReading(box, 315, 0.6, cells, False, images, b"")
    hand = reading.Hand()
    assert hand.learn(read, 815) == 3 and list(hand.labels) == [8, 1, 5]
    assert hand.learn(read, 4815) == 0  # four digits for three written: which is which is not known
    assert hand.learn(read, None) == 0 and len(hand) == 3
