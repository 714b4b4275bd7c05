"""The reading list's shared view and notes, in a real browser.

A shared link (``/reading-list/?papers=a,b,c``) shows its papers (each opening its page, the
list exporting as the site's BibTeX) and leaves the reader's own list alone until they ask:
"Save all to my list", "Replace my list" after a confirmation, one paper's "Save", or "Back
to my list". Saved papers carry the reader's note, stored as they type, exported as BibTeX's
``annote`` and never put in a share link; lists saved before notes existed still load.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from urllib.parse import urlsplit

import bibtexparser
import pytest

from .test_accessibility import DESKTOP, check_both_themes, run_axe

pytestmark = pytest.mark.browser

KEY = "papershelf-reading-list:/"


@pytest.fixture(scope="module")
def views(bundled_views):
    """The committed catalog as the pages show it (shared: read-only)."""
    return bundled_views()


@pytest.fixture(scope="module")
def papers(views):
    """Four papers with plain-text titles, in catalog order."""
    return [p for p in views.papers if "<" not in str(p.title_html) and p.authors][:4]


def raw_list(page) -> str | None:
    return page.evaluate(f"localStorage.getItem({KEY!r})")


def saved(page) -> list[dict]:
    return json.loads(raw_list(page) or "[]")


def set_list(page, server, entries: list[dict] | str) -> None:
    """The reader's list as stored (``entries`` as JSON, or the raw text)."""
    page.goto(server.url("/"))
    text = entries if isinstance(entries, str) else json.dumps(entries)
    page.evaluate(f"t => localStorage.setItem({KEY!r}, t)", text)


def open_shared(page, server, slugs: list[str]):
    page.goto(server.url("/reading-list/?papers=" + ",".join(slugs)))
    panel = page.locator("#rl-import")
    panel.wait_for()
    page.wait_for_function("document.querySelectorAll('#rl-items > li').length > 0 || "
                           "!!document.getElementById('rl-import-summary').textContent")
    return panel


def item_hrefs(page) -> list[str]:
    return page.eval_on_selector_all("#rl-items > li h3 a", "as => as.map(a => a.getAttribute('href'))")


def bib_file(site_dir: Path, paper) -> str:
    """The BibTeX entry the paper's page shows (its Cite section), which the reading list exports."""
    text = (site_dir / paper.url / "index.html").read_text(encoding="utf-8")
    found = re.search(r'<pre [^>]*id="cite-bibtex"[^>]*><code>(.*?)</code></pre>', text, re.S)
    assert found, paper.slug
    return html.unescape(found.group(1)).strip() + "\n"


def heading_levels(page) -> list[int]:
    """The levels of the headings a reader meets (visible ones), in document order."""
    return page.eval_on_selector_all(
        "main h1, main h2, main h3, main h4",
        "hs => hs.filter(h => h.offsetParent !== null).map(h => Number(h.tagName[1]))")


def assert_heading_order(levels: list[int]) -> None:
    assert levels and levels[0] == 1, levels
    for before, after in zip(levels, levels[1:]):
        assert after <= before + 1, f"heading levels jump: {levels}"


# -------------------------------------------------------------------- the shared view


@pytest.mark.parametrize("width", [1280, 320])
def test_a_shared_link_shows_its_papers_and_leaves_the_readers_list_alone(browser, server, site_dir, papers, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    a, b, c, d = papers
    mine = [{"s": a.slug, "t": a.title_plain, "n": "my private note"}, {"s": d.slug, "t": ""}]
    set_list(page, server, mine)
    before = raw_list(page)

    panel = open_shared(page, server, [b.slug, a.slug, "no-such-paper", c.slug, "..%2Fetc"])
    assert page.locator("#rl-items > li").count() == 3
    assert item_hrefs(page) == ["/" + p.url for p in (b, a, c)]  # in the link's order, unknown ones left out
    assert page.locator("#rl-list-heading").inner_text() == "Papers in the shared list"
    text = panel.inner_text()
    assert "shared 3 papers" in text and "1 of them is in your list already" in text
    assert "not in this catalog" in text and "(2 papers)" in text
    # A list page's item, with Save (pressed for the paper the reader has): no Remove, no notes.
    buttons = page.locator("#rl-items > li > .save-button")
    assert buttons.count() == 3
    assert [buttons.nth(i).get_attribute("aria-pressed") for i in range(3)] == ["false", "true", "false"]
    assert page.locator("#rl-items .remove-button, #rl-items .rl-note").count() == 0
    assert "my private note" not in page.content()
    assert page.locator("#rl-clear").is_hidden()
    assert_heading_order(heading_levels(page))

    # Exported as the site's BibTeX of those papers (the reader's note is not theirs).
    with page.expect_download() as info:
        page.locator("#rl-export").click()
    assert info.value.suggested_filename == "shared-reading-list.bib"
    assert Path(info.value.path()).read_text(encoding="utf-8") == "\n".join(bib_file(site_dir, p) for p in (b, a, c))

    # Each paper opens its page.
    page.locator("#rl-items > li h3 a").first.click()
    page.wait_for_url(server.url("/" + b.url))
    page.go_back()
    page.locator("#rl-items > li").nth(2).wait_for()
    assert raw_list(page) == before  # nothing changed without being asked

    # Back to my list: the reader's own list, with its note.
    page.locator("#rl-import-back").click()
    page.wait_for_url(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(1).wait_for()
    assert page.locator("#rl-import").is_hidden()
    assert item_hrefs(page) == ["/" + a.url, "/" + d.url]
    assert page.locator("#rl-items > li .rl-note-text").first.input_value() == "my private note"
    assert raw_list(page) == before
    context.close()
    assert not errors, errors


def test_save_all_adds_the_papers_not_yet_saved_and_keeps_notes(page, server, papers):
    a, b, c, _ = papers
    set_list(page, server, [{"s": a.slug, "t": a.title_plain, "n": "keep me"}])
    open_shared(page, server, [b.slug, a.slug, c.slug])
    page.locator("#rl-import-add").click()
    page.wait_for_function("document.getElementById('rl-status').textContent.startsWith('Added')")
    assert saved(page) == [{"s": a.slug, "t": a.title_plain, "n": "keep me"},
                           {"s": b.slug, "t": b.title_plain}, {"s": c.slug, "t": c.title_plain}]
    assert "papers=" not in page.url
    assert page.locator("#rl-import").is_hidden()
    assert page.locator("#rl-status").inner_text() == "Added 2 papers to your reading list, which now holds 3."
    assert item_hrefs(page) == ["/" + p.url for p in (a, b, c)]
    assert page.evaluate("document.activeElement.id") == "rl-list-heading"  # the panel that had the focus is gone

    # The browser's Back shows the shared list again: all of it saved now.
    page.go_back()
    page.locator("#rl-import:not([hidden])").wait_for()
    assert "papers=" in page.url
    assert page.locator("#rl-import-add").is_hidden()
    assert "all of them are in your list already" in page.locator("#rl-import-summary").inner_text()


def test_replace_asks_first_and_can_be_undone(page, server, papers):
    a, b, c, d = papers
    mine = [{"s": a.slug, "t": a.title_plain, "n": "stays"}, {"s": d.slug, "t": d.title_plain, "n": "goes"}]
    set_list(page, server, mine)
    open_shared(page, server, [a.slug, b.slug, c.slug])
    before = raw_list(page)

    page.locator("#rl-import-replace").click()
    confirm = page.locator("#rl-replace-confirm")
    assert confirm.is_visible()
    question = page.locator("#rl-replace-question")
    assert page.evaluate("document.activeElement.id") == "rl-replace-question"
    assert question.inner_text() == ("Replace the 2 papers of your reading list with the 3 shared ones? Your note on a "
                                     "paper that is not in the shared list will be lost too. You can undo it right after.")
    assert raw_list(page) == before  # asking changes nothing
    page.locator("#rl-replace-no").click()
    assert confirm.is_hidden()
    assert page.evaluate("document.activeElement.id") == "rl-import-replace"
    assert raw_list(page) == before

    page.locator("#rl-import-replace").click()
    page.locator("#rl-replace-yes").click()
    page.wait_for_function("document.getElementById('rl-status').textContent.startsWith('Your reading list now')")
    assert saved(page) == [{"s": a.slug, "t": a.title_plain, "n": "stays"},  # the note of a paper in both stays
                           {"s": b.slug, "t": b.title_plain}, {"s": c.slug, "t": c.title_plain}]
    assert "papers=" not in page.url
    assert item_hrefs(page) == ["/" + p.url for p in (a, b, c)]

    page.locator("#rl-status .undo-button").click()
    page.wait_for_function("document.getElementById('rl-status').textContent === 'Restored.'")
    assert saved(page) == mine
    assert item_hrefs(page) == ["/" + a.url, "/" + d.url]


def test_one_paper_of_a_shared_list_can_be_saved_alone(page, server, papers):
    a, b, c, _ = papers
    set_list(page, server, [{"s": a.slug, "t": a.title_plain}])
    open_shared(page, server, [b.slug, c.slug])
    assert page.locator("#rl-import-replace").is_visible()
    button = page.locator(f"#rl-items > li[data-slug='{c.slug}'] .save-button")
    assert button.get_attribute("aria-label") == f"Save: {c.title_plain}"
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    assert saved(page) == [{"s": a.slug, "t": a.title_plain}, {"s": c.slug, "t": c.title_plain}]
    assert "1 of them is in your list already" in page.locator("#rl-import-summary").inner_text()
    assert page.locator("#rl-items > li").count() == 2  # still the shared list
    assert page.locator("[data-reading-list-count]").inner_text() == "2"


def test_a_link_naming_no_paper_of_the_catalog_says_so(page, server, papers):
    set_list(page, server, [{"s": papers[0].slug, "t": ""}])
    before = raw_list(page)
    open_shared(page, server, ["no-such-paper", "nor-this"])
    page.wait_for_function("document.getElementById('rl-import-summary').textContent.includes('no paper')")
    assert page.locator("#rl-items > li").count() == 0
    assert page.locator("#rl-import-add").is_hidden() and page.locator("#rl-import-replace").is_hidden()
    assert page.locator("#rl-toolbar").is_hidden() and page.locator("#rl-empty").is_hidden()
    assert page.locator("#rl-import-back").is_visible()
    assert raw_list(page) == before


# ------------------------------------------------------------------------- notes


def note_box(page, slug: str):
    return page.locator(f"#rl-items > li[data-slug='{slug}'] .rl-note")


@pytest.mark.parametrize("width", [1280, 320])
def test_a_note_is_added_with_the_keyboard_and_saved_as_the_reader_types(browser, server, papers, width):
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    a, b = papers[:2]
    set_list(page, server, [{"s": a.slug, "t": a.title_plain}, {"s": b.slug, "t": b.title_plain}])
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(1).wait_for()
    box = note_box(page, b.slug)
    add = box.get_by_role("button", name=f"Add note on “{b.title_plain}”")
    assert add.is_visible()
    assert box.locator("textarea").is_hidden()
    add.focus()
    page.keyboard.press("Enter")
    area = page.get_by_role("textbox", name=f"Note on “{b.title_plain}”")
    assert area.evaluate("a => a === document.activeElement")
    assert add.is_hidden()
    assert area.get_attribute("aria-describedby") == "rl-note-hint"
    assert "never put in a share link" in page.locator("#rl-note-hint").text_content()

    page.keyboard.type("Section 3 first")
    assert saved(page)[1] == {"s": b.slug, "t": b.title_plain}  # debounced: not on every key
    page.wait_for_function(f"(JSON.parse(localStorage.getItem({KEY!r}))[1].n || '') === 'Section 3 first'")
    assert box.locator(".rl-note-state").inner_text() == "Saved"
    assert saved(page)[0] == {"s": a.slug, "t": a.title_plain}
    # Within the item, below its title; on a phone nothing is wider than the screen.
    assert box.bounding_box()["y"] > page.locator(f"#rl-items > li[data-slug='{b.slug}'] h3").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.reload()  # shown open next time
    area = page.get_by_role("textbox", name=f"Note on “{b.title_plain}”")
    area.wait_for()
    assert area.input_value() == "Section 3 first"
    assert note_box(page, a.slug).locator("textarea").is_hidden()

    area.fill("")  # an emptied note is no note
    page.wait_for_function(f"!('n' in JSON.parse(localStorage.getItem({KEY!r}))[1])")
    context.close()


def test_a_note_typed_just_before_leaving_the_page_is_kept(page, server, papers):
    a = papers[0]
    set_list(page, server, [{"s": a.slug, "t": a.title_plain}])
    page.goto(server.url("/reading-list/"))
    note_box(page, a.slug).locator(".rl-note-add").click()
    page.keyboard.type("typed fast")
    page.goto(server.url("/papers/"))  # at once, before the debounce
    assert saved(page) == [{"s": a.slug, "t": a.title_plain, "n": "typed fast"}]


def test_notes_go_into_the_bibtex_export_as_annote_and_never_into_the_share_link(page, server, site_dir, papers):
    a, b, c = papers[:3]
    note = "Read §3 first: {Thm 2} holds for 50% of cases & $x_1$ ~ <ok> #1 \\cite{x} ^_^\r\n\r\n\r\nsecond   line"
    set_list(page, server, [{"s": a.slug, "t": "", "n": note}, {"s": b.slug, "t": ""}, {"s": c.slug, "t": "", "n": "  \n "}])
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(2).wait_for()
    assert note_box(page, c.slug).locator("textarea").is_hidden()  # a blank note is none

    with page.expect_download() as info:
        page.locator("#rl-export").click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks
    assert len(library.entries) == 3
    annotated, plain, blank = library.entries
    value = annotated.fields_dict["annote"].value
    assert value == ("Read §3 first: \\textbraceleft{}Thm 2\\textbraceright{} holds for 50\\% of cases \\& \\$x\\_1\\$ "
                     "\\textasciitilde{} \\textless{}ok\\textgreater{} \\#1 \\textbackslash{}cite\\textbraceleft{}x"
                     "\\textbraceright{} \\textasciicircum{}\\_\\textasciicircum{}\n\nsecond line")
    assert value.count("{") == value.count("}")  # BibTeX counts escaped braces too: none are left
    # The rest of each entry is the site's file, unchanged.
    site_a = bibtexparser.parse_string(bib_file(site_dir, a)).entries[0]
    assert {k: f.value for k, f in annotated.fields_dict.items() if k != "annote"} == \
        {k: f.value for k, f in site_a.fields_dict.items()}
    site_a_text = bib_file(site_dir, a)
    assert site_a_text.endswith("}\n}\n")
    assert text == (site_a_text[:-len("\n}\n")] + ",\n  annote = {" + value + "}\n}\n" + "\n" +
                    bib_file(site_dir, b) + "\n" + bib_file(site_dir, c))
    assert "annote" not in plain.fields_dict and "annote" not in blank.fields_dict

    page.locator("#rl-share").click()
    share = page.locator("#rl-share-url").input_value()
    assert urlsplit(share).query == "papers=" + ",".join([a.slug, b.slug, c.slug])
    assert "never" not in share and "Read" not in share
    assert "notes are not in it" in page.locator("#rl-share-box label").inner_text()


def test_removing_a_paper_and_undo_keep_its_note(page, server, papers):
    a, b = papers[:2]
    mine = [{"s": a.slug, "t": a.title_plain, "n": "note a"}, {"s": b.slug, "t": b.title_plain}]
    set_list(page, server, mine)
    page.goto(server.url("/reading-list/"))
    page.locator(f"#rl-items > li[data-slug='{a.slug}'] .remove-button").click()
    page.locator("#rl-status .undo-button").click()
    page.wait_for_function("document.getElementById('rl-status').textContent === 'Restored.'")
    assert saved(page) == mine
    assert note_box(page, a.slug).locator("textarea").input_value() == "note a"


def test_unsaving_on_a_paper_page_and_saving_again_brings_the_note_back(page, server, papers):
    a = papers[0]
    set_list(page, server, [{"s": a.slug, "t": a.title_plain, "n": "careful"}])
    page.goto(server.url("/" + a.url))
    button = page.locator(".paper-actions .save-button")
    assert button.get_attribute("title") == "Remove from your reading list, with your note"
    button.click()
    assert saved(page) == []
    button.click()
    assert saved(page) == [{"s": a.slug, "t": a.title_plain, "n": "careful"}]


# ------------------------------------------------------------- stored before notes


def test_a_list_saved_before_notes_existed_still_loads_and_keeps_its_entries(page, server, papers):
    """The stored format only gained an optional ``n``: an old list ({s, t}) is read as it is."""
    a, b, c, _ = papers
    old = json.dumps([{"s": a.slug, "t": a.title_plain}, {"s": b.slug, "t": ""}])
    set_list(page, server, old)
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(1).wait_for()
    assert item_hrefs(page) == ["/" + a.url, "/" + b.url]
    assert page.locator("#rl-items > li").nth(1).locator("h3 a").inner_text() == b.title_plain
    assert raw_list(page) == old  # reading it writes nothing

    note_box(page, b.slug).locator(".rl-note-add").click()
    page.keyboard.type("new note")
    page.wait_for_function(f"JSON.parse(localStorage.getItem({KEY!r}))[1].n === 'new note'")
    assert saved(page) == [{"s": a.slug, "t": a.title_plain}, {"s": b.slug, "t": "", "n": "new note"}]

    page.goto(server.url("/" + c.url))  # the other pages' Save buttons keep the notes
    page.locator(".paper-actions .save-button").click()
    assert saved(page) == [{"s": a.slug, "t": a.title_plain}, {"s": b.slug, "t": "", "n": "new note"},
                           {"s": c.slug, "t": c.title_plain}]


def test_notes_of_a_malformed_type_are_dropped_not_fatal(page, server, papers):
    a, b = papers[:2]
    set_list(page, server, [{"s": a.slug, "t": "", "n": 42}, {"s": b.slug, "t": "", "n": ["x"]}, {"s": "Bad Slug"}])
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(1).wait_for()
    assert page.locator("#rl-items > li").count() == 2
    assert page.locator("#rl-items .rl-note-text:visible").count() == 0


# ---------------------------------------------------------------- accessibility


@pytest.mark.slow
def test_own_list_with_notes_has_no_axe_violations_and_ordered_headings(browser, server, papers):
    """test_accessibility checks the shared view; this is the reader's own list, a note open,
    in both themes (``check_both_themes``: one page load serves both)."""
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    page = context.new_page()
    a, b = papers[:2]
    set_list(page, server, [{"s": a.slug, "t": "", "n": "a note"}, {"s": b.slug, "t": ""}])
    page.goto(server.url("/reading-list/"))
    page.locator("#rl-items > li").nth(1).wait_for()
    assert_heading_order(heading_levels(page))
    assert heading_levels(page) == [1, 2, 3, 3]

    def check(theme: str) -> None:
        page.set_viewport_size(DESKTOP)
        note_box(page, b.slug).locator(".rl-note-add").focus()  # its focus ring is checked too
        assert run_axe(page) == [], theme
        page.set_viewport_size({"width": 320, "height": 740})
        assert run_axe(page) == [], theme
        assert page.evaluate("document.documentElement.scrollWidth") <= 320

    check_both_themes(page, check)
    # The empty list (on the phone): its own heading, no list heading.
    page.locator("#rl-clear").click()
    page.locator("#rl-empty").wait_for()
    assert heading_levels(page) == [1, 2]

    def check_empty(theme: str) -> None:
        assert run_axe(page) == [], theme

    check_both_themes(page, check_empty)
    context.close()


def test_shared_view_headings_are_in_order(page, server, papers):
    open_shared(page, server, [p.slug for p in papers[:2]])
    page.locator("#rl-items > li").nth(1).wait_for()
    assert heading_levels(page) == [1, 2, 2, 3, 3]
    assert re.search(r"shared", page.locator("#rl-import-heading").inner_text())
