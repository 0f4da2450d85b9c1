from scorekeeper.scoring import TeamRound

ROUND = [TeamRound(melded_points=300, books={"clean": 1}), TeamRound(melded_points=150)]


def lang_of(r):
    return r.get_data(as_text=True).split('<html lang="', 1)[1].split('"', 1)[0]


def test_follow_page_304_after_language_switch(client, make_game):
    game = make_game("roth", [ROUND], teams=(("Reds", ["Ann", "Bo"]), ("Blues", ["Cy", "Di"])))
    url = f"/s/{game.share_token}"
    first = client.get(url)
    assert lang_of(first) == "en"
    etag = first.headers["ETag"]
    client.get(f"/language/pt_BR?next={url}")
    again = client.get(url, headers={"If-None-Match": etag})
    # the phone now asked for Portuguese: it must not be told its English copy is current
    assert again.status_code == 200, again.status_code
