"""A page read as the tree of its elements; a rules page from its address."""

from html.parser import HTMLParser

from django.test import Client
from django.urls import reverse

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class Node:
    def __init__(self, tag: str, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def text(self) -> str:
        parts = [c if isinstance(c, str) else c.text() for c in self.children]
        return " ".join(" ".join(parts).split())

    def find_all(self, tag=None, **attrs) -> list["Node"]:
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and all(attr_has(n, k.rstrip("_"), v) for k, v in attrs.items())
        ]

    def by_id(self, id_: str) -> "Node":
        found = self.find_all(id=id_)
        assert len(found) == 1, f"{len(found)} elements with id {id_!r}"
        return found[0]

    def holding(self, text: str) -> "Node":
        """The innermost element whose text holds ``text``."""
        found = [n for n in self.iter() if text in n.text()]
        assert found, f"no element holds {text!r}"
        return found[-1]

    def within(self, *tags: str) -> bool:
        """Whether an element around this one is one of ``tags``."""
        node = self.parent
        while node is not None:
            if node.tag in tags:
                return True
            node = node.parent
        return False

    def inside(self, other: "Node") -> bool:
        node = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False

    def images(self) -> list[str]:
        """The accessible names of the images inside (the cards: role="img")."""
        return [n.attrs.get("aria-label") for n in self.find_all(role="img")]


def attr_has(node: Node, name: str, value) -> bool:
    if value is True:
        return name in node.attrs
    if name == "class":
        return value in (node.attrs.get("class") or "").split()
    return node.attrs.get(name) == value


class Tree(HTMLParser):
    def __init__(self, html: str):
        super().__init__()
        self.root = self.current = Node("#document", [], None)
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        assert node is not None and node.parent is not None, f"</{tag}> closes nothing"
        self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def rules_url(key: str) -> str:
    return reverse("rules", args=[key])


def rules_page(key: str, language: str, client=None) -> Node:
    response = (client or Client()).get(rules_url(key), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    return Tree(html).root
