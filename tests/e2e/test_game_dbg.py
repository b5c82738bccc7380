from playwright.sync_api import expect
def test_dbg(open_app, page):
    page.on("console", lambda m: print("CONSOLE", m.type, m.text[:400]))
    page = open_app("?size=3&mode=simple&seats=human,easy&game=Sa1Ob1Sc1")
    expect(page.get_by_test_id("status")).to_have_text("You win with the first SOS")
    page.get_by_test_id("rematch").click()
    expect(page.locator("#players li[data-player='1']")).to_have_attribute("data-kind", "human")
    print("URL1", page.url)
    page = open_app("?size=3&mode=simple&game=Sa1Ob1Sc1")
    print("URL2", page.url, page.get_by_test_id("status").inner_text())
