"""The Kivy side of the translations: ``tr._("...")`` in kv rules re-evaluates when the
language changes (the Observable pattern of kivy-gettext-example)."""

from __future__ import annotations

from kivy.lang import Observable

from kiosk.ui import i18n


class Translator(Observable):
    def __init__(self) -> None:
        super().__init__()
        self._observers: list = []

    def _(self, message: str) -> str:
        return i18n._(message)

    def fbind(self, name, func, args, **kwargs):
        if name == "_":
            self._observers.append((func, args, kwargs))
            return len(self._observers)
        return super().fbind(name, func, *args, **kwargs)

    def funbind(self, name, func, args, **kwargs):
        if name == "_":
            key = (func, args, kwargs)
            if key in self._observers:
                self._observers.remove(key)
            return None
        return super().funbind(name, func, *args, **kwargs)

    def switch(self, language: str) -> None:
        i18n.set_language(language)
        for entry in list(self._observers):
            func, largs, _kwargs = entry
            try:
                func(largs, None, None)
            except ReferenceError:  # the widget of that kv rule is gone
                # by identity: comparing the tuples would touch the dead weak proxy again
                self._observers = [e for e in self._observers if e is not entry]


tr = Translator()
