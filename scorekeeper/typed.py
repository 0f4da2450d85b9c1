"""What a typed number reads as, wherever it was typed: a phone's form or a spreadsheet's cell."""


def whole_number(text):
    """What a number field reads from what was typed: "1,200" and " 75 " are numbers,
    "−100" is negative, a blank is None; ``ValueError`` for anything else."""
    text = text.strip().replace(",", "").replace("\u2212", "-")
    return None if text == "" else int(text)
