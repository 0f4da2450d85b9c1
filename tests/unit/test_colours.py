"""The players' palette (services/colours.py, issue 58) stays apart for colour-blind
readers and in grey print, measured here with the literature's simulation and colour
difference, written out in this file (nothing of the palette's module computes them);
a team's colour and a chart's series' colours follow their rules.

Simulation: Machado, Oliveira and Fernandes, "A Physiologically-based Model for
Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009, table 1 at severity 1.0
(protanopia, deuteranopia, tritanopia), applied to linear sRGB as the paper does.
Difference: CIEDE2000 (CIE 142-2001), as Sharma, Wu and Dalal write it out in "The
CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary Test Data, and
Mathematical Observations", Color Research & Application 30(1), 2005; checked against
pairs of their test data. Grey print: CIE L* of the colour's luminance (the Rec. 709
weights sRGB uses), as a printer's conversion to grey keeps lightness.

Thresholds (the palette's measured least, in brackets): two colours differ by a
CIEDE2000 of at least 20 to normal sight (22.2) and 10 under each simulation (protan
12.2, deutan 12.5, tritan 10.9); a ΔE00 of 10 is a difference seen at a glance, where
2.3 is the least noticeable. In grey, colours of two lightness steps differ by at least
8 L* (8.2), and two colours of one step differ by their marker's shape.
"""

import itertools
import math

import pytest

from scorekeeper.services import colours
from scorekeeper.services.colours import PALETTE, Colour
from scorekeeper.web import charts

MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
LEAST_APART = {"normal": 20, "protanopia": 10, "deuteranopia": 10, "tritanopia": 10}
GREY_STEP = 8  # L* between two colours of different lightness steps


def linear(hex_colour):
    """sRGB "#rrggbb" as linear light, 0 to 1 (IEC 61966-2-1)."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def simulated(rgb, matrix):
    """Linear RGB as seen with the deficiency, kept inside the gamut."""
    return [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix]


def lab(rgb):
    """Linear sRGB to CIELAB (D65 white)."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def ciede2000(first, second):
    """ΔE00 between two CIELAB colours (Sharma et al. 2005, equations 1 to 22)."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p - h1p > 180 else h2p - h1p + 360
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


@pytest.mark.parametrize(
    "first, second, expected",
    [  # Sharma et al. 2005, table 1: pairs 1, 7, 17, 18 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_the_colour_difference_is_the_published_one(first, second, expected):
    assert ciede2000(first, second) == pytest.approx(expected, abs=1e-4)


def seen(colour, vision):
    rgb = linear(colour.hex)
    return lab(rgb if vision == "normal" else simulated(rgb, MACHADO[vision]))


@pytest.mark.parametrize("vision", LEAST_APART)
def test_every_two_colours_stay_apart_with_each_kind_of_colour_blindness(vision):
    too_close = [
        (a.key, b.key, round(ciede2000(seen(a, vision), seen(b, vision)), 1))
        for a, b in itertools.combinations(PALETTE, 2)
        if ciede2000(seen(a, vision), seen(b, vision)) < LEAST_APART[vision]
    ]
    assert too_close == []


def grey(colour):
    return lab(linear(colour.hex))[0]


def test_in_grey_print_a_lightness_step_apart_or_a_shape_apart():
    # the steps are in the order of their lightness, each step GREY_STEP from the next
    for a, b in itertools.combinations(PALETTE, 2):
        if a.step != b.step:
            darker, lighter = sorted((a, b), key=lambda c: c.step)
            assert grey(lighter) - grey(darker) >= GREY_STEP, (a.key, b.key, grey(a), grey(b))
        else:
            assert a.marker != b.marker, (a.key, b.key)
    # every colour's shape is its own: a line is told by its marker wherever its colour is not
    assert len({c.marker for c in PALETTE}) == len(PALETTE)
    assert {c.marker for c in PALETTE} <= set(charts.SHAPES)


def test_the_palette_is_as_written():
    assert [(c.key, c.hex, c.marker, c.step) for c in PALETTE] == [
        ("red", "#d55e00", "circle", 3),
        ("blue", "#0072b2", "square", 2),
        ("green", "#009e73", "diamond", 3),
        ("pink", "#cc79a7", "triangle", 3),
        ("orange", "#e69f00", "wedge", 4),
        ("light-blue", "#56b4e9", "cross", 4),
        ("black", "#000000", "star", 1),
    ]


RED, BLUE, GREEN = (colours.colour(k) for k in ("red", "blue", "green"))


def test_a_team_of_one_takes_its_players_colour_a_pair_its_first_players_unless_taken():
    drawn = {1: RED, 2: BLUE, 3: GREEN, 4: RED}
    assert colours.team_colours([[1], [2]], drawn) == [RED, BLUE]
    assert colours.team_colours([[1, 2], [3, 4]], drawn) == [RED, GREEN]
    # Di (red, as Ann) leads the second pair: it takes no colour, the chart gives its own
    assert colours.team_colours([[1, 2], [4, 3]], drawn) == [RED, None]
    # a player alone keeps their colour before a pair led by someone of the same colour
    assert colours.team_colours([[4, 3], [1]], drawn) == [None, RED]
    assert colours.team_colours([[1], [4]], drawn) == [RED, None]


def test_a_chart_never_draws_two_series_in_one_colour():
    wanted = [RED, None, RED, BLUE]
    chosen = charts.series_colours(wanted)
    assert [c.key for c in chosen] == ["red", "green", "pink", "blue"]
    six = charts.series_colours([None] * 6)
    assert [c.key for c in six] == ["red", "blue", "green", "pink", "orange", "light-blue"]
    chart = charts.line_chart("t", "d", ["1", "2"], [("Ann", [1, 2], RED), ("Bo", [2, 3], RED)])
    assert [(s.key, s.colour, s.marker) for s in chart.series] == [
        ("red", "#d55e00", "circle"),
        ("blue", "#0072b2", "square"),
    ]


def test_a_colour_has_a_name_and_shape_of_its_own():
    assert isinstance(colours.colour("green"), Colour) and colours.colour("purple") is None
    assert len({c.key for c in PALETTE}) == len({c.name for c in PALETTE}) == len(PALETTE)
