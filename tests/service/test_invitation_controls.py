"""The invitation page's answers: each control sits in its own form with its label tied to
it, so "never let … invite me again" cannot be read as part of Accept."""
from __future__ import annotations

from html.parser import HTMLParser

from tests.service.test_organisers_support import create_game, link_in, mails, sign_in


class Forms(HTMLParser):
    """Each form's action, the inputs inside it, and every label's ``for`` and text."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.labels: dict[str, str] = {}
        self._form: dict | None = None
        self._label: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"action": attrs.get("action", ""), "inputs": {}, "buttons": []}
            self.forms.append(self._form)
        elif tag == "input" and self._form is not None and attrs.get("name"):
            self._form["inputs"][attrs["name"]] = attrs
        elif tag == "label" and attrs.get("for"):
            self._label = attrs["for"]
            self.labels[self._label] = ""
        elif tag == "button" and self._form is not None:
            self._form["buttons"].append("")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "label":
            self._label = None

    def handle_data(self, data):
        if self._label is not None:
            self.labels[self._label] += data
        if self._form is not None and self._form["buttons"] and self.lasttag == "button":
            self._form["buttons"][-1] += data.strip()


def invitation_page(app, address: str) -> Forms:
    path = link_in([m for m in mails(app, address) if "/invite/" in m["text"]][-1], "invite")
    page = Forms()
    page.feed(app.test_client().get(path).get_data(as_text=True))
    return page


def test_the_block_box_is_inside_the_decline_form_and_its_label_names_it(app, client):
    sign_in(client, app)
    create_game(client)
    page = invitation_page(app, "ben@example.org")
    accept, = [f for f in page.forms if f["action"].endswith("/accept")]
    decline, = [f for f in page.forms if f["action"].endswith("/decline")]
    assert "block" not in accept["inputs"] and accept["buttons"] == ["Accept"]
    box = decline["inputs"]["block"]
    assert box["type"] == "checkbox" and decline["buttons"] == ["Decline"]
    assert "never let Olga invite me again" in page.labels[box["id"]]
    assert page.labels["contribution"] and "contribution" in accept["inputs"]
