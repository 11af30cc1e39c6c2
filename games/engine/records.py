"""Deal records (docs/rules/records.md): check a document, replay it, write one."""

import json
from dataclasses import dataclass

from . import get_rules
from .base import IllegalAction, InvalidAction, InvalidRecord, State, gettext_noop


@dataclass
class Replayed:
    state: State
    complete: bool

    def result(self) -> dict:
        return {**self.state.result(), "complete": self.complete}


class IllegalRecordAction(Exception):
    def __init__(self, index: int, action, reason: IllegalAction):
        super().__init__(f"action {index} {json.dumps(action, ensure_ascii=False)}: {reason}")
        self.index = index
        self.action = action
        self.reason = reason


def parse(text: str) -> dict:
    """The record in ``text``; InvalidRecord for bad JSON or a document of the wrong shape."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:  # (its str: "msg: line 1 column 2 (char 1)")
        raise InvalidRecord(
            gettext_noop("not JSON: %(error)s: line %(line)s column %(column)s (char %(char)s)"),
            error=exc.msg,
            line=exc.lineno,
            column=exc.colno,
            char=exc.pos,
        ) from None
    except ValueError as exc:  # a number of thousands of digits
        raise InvalidRecord(gettext_noop("not JSON: %(error)s"), error=str(exc)) from None
    except RecursionError:
        raise InvalidRecord(gettext_noop("not JSON: nested too deeply")) from None
    if not isinstance(record, dict):
        raise InvalidRecord(gettext_noop("a record must be a JSON object"))
    return record


def start(record: dict):
    """The state before the first action and the actions, all checked for shape."""
    rules = get_rules(record.get("game"))
    state = rules.from_record(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidRecord(gettext_noop("actions must be a list"))
    for index, action in enumerate(actions):
        try:
            state.parse_action(action)
        except InvalidAction as exc:
            raise InvalidRecord(
                gettext_noop("action %(index)s: %(reason)s"), index=index, reason=exc
            ) from None
    return state, actions


def replay(record: dict) -> Replayed:
    """Apply every action in order; IllegalRecordAction names the first the rules refuse."""
    state, actions = start(record)
    for index, action in enumerate(actions):
        try:
            state.apply(action)
        except IllegalAction as exc:
            raise IllegalRecordAction(index, action, exc) from None
    return Replayed(state, state.is_over())
