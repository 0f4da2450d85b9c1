"""House rules on a 360 px phone, in a real browser: export, import, edit, delete."""

from playwright.sync_api import expect


def test_export_import_edit_and_delete_house_rules(page, live_server, screenshot):
    page.goto(f"{live_server}/rules/roth")
    with page.expect_download() as info:
        page.get_by_role("link", name="Download as a house-rules file").click()
    exported = info.value.path()

    page.goto(f"{live_server}/rules")
    page.get_by_role("link", name="Import a file").click()
    page.get_by_label("House-rules file").set_input_files(exported)
    screenshot(page, "phone-rules-import")
    page.get_by_role("button", name="Import").click()
    # the file's name is taken by the preset it came from: say so, keep the rest
    expect(page.locator("#name-error")).to_have_text(
        "There is already a rule set called “Roth family house rules (to 10,000)”."
    )
    page.get_by_label("House-rules file").set_input_files(exported)
    page.get_by_label("Save as").fill("Roth at home")
    page.get_by_role("button", name="Import").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Roth at home")

    page.get_by_role("link", name="Edit", exact=True).click()
    red = page.get_by_role("group", name="Red 3 caught in hand or foot")
    red.get_by_label("The team").select_option(label="gains")
    red.get_by_label("Points per red 3").fill("100")
    page.get_by_label("9", exact=True).fill("nine")
    page.get_by_role("button", name="Save house rules").click()
    # a refused form opens at its top: the summary links to the field, which kept "nine"
    page.get_by_role("link", name="Enter a whole number, like 120.").click()
    expect(page.get_by_label("9", exact=True)).to_have_value("nine")
    expect(red.get_by_label("Points per red 3")).to_have_value("100")
    screenshot(page, "phone-rules-edit-refused", errors=True)
    page.get_by_label("9", exact=True).fill("10")
    page.get_by_role("button", name="Save house rules").click()
    bonuses = page.get_by_role("region", name="Bonuses and penalties")
    expect(bonuses.get_by_role("row", name="Red 3 caught in hand or foot")).to_contain_text("+100 each")

    page.get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete these house rules").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Rule sets")
    expect(page.get_by_role("link", name="Roth at home")).to_have_count(0)
