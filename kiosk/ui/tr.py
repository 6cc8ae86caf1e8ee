"""The Kivy side of the translations: ``tr._("...")`` and ``tr.ngettext("...", "...", n)`` in
kv rules re-evaluate when the language changes (the Observable pattern of
kivy-gettext-example)."""

from __future__ import annotations

from kivy.lang import Observable

from kiosk.ui import i18n


class Translator(Observable):
    def __init__(self) -> None:
        super().__init__()
        self._observers: list = []

    def _(self, message: str) -> str:
        return i18n._(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return i18n.ngettext(singular, plural, n)

    def fbind(self, name, func, args, **kwargs):
        if name in ("_", "ngettext"):
            self._observers.append((func, args, kwargs))
            return len(self._observers)
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name, func, args, **kwargs):
        if name in ("_", "ngettext"):
            self._observers = [e for e in self._observers if not (e[0] is func and e[1] is args)]
            return None
        return super().funbind(name, func, *args, **kwargs)

    def switch(self, language: str) -> None:
        i18n.set_language(language)
        alive = []
        for entry in self._observers:
            func, largs, _kwargs = entry
            try:
                func(largs, None, None)
            except ReferenceError:  # the widget of that kv rule is gone: forget it
                continue
            alive.append(entry)
        self._observers = alive


tr = Translator()
