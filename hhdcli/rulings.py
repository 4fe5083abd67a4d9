"""The format's rulings for Hellscube's odd cards, as data: an id, a short text in English and Russian, and
the text patterns that call for it (read from a card's rules text with its own name blanked out, so that a
card called "Dreadmaw Draft Guide" is not a drafting card by its name alone). Pure functions."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hhdcli.cards import Card


@dataclass(frozen=True)
class Ruling:
    id: str
    en: str
    ru: str
    patterns: tuple[str, ...]  # regular expressions over the lower-cased rules text
    short: str = ""  # a line for a card's own text box or description
    unless: str | None = None  # a sentence that matches this too calls for no ruling (a leyline's opening hand)

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


RULINGS: tuple[Ruling, ...] = (
    Ruling("draft", "Drafting: 'when you draft it' happens when you take it or decline it to the sideboard; "
           "'a pack reaches you' or 'before the draft' when you look at it; 'until the end of the pack' lasts the "
           "game; cards added to your draft pool go to the sideboard, checks of it look at the sideboard, removal "
           "from it exiles, other draft-pool effects act on the Hell library.",
           "Драфт: «когда вы драфтите» — когда вы берёте карту или отказываетесь от неё в сайдборд; «когда к вам "
           "приходит бустер» и «перед драфтом» — когда вы на неё смотрите; «до конца бустера» — до конца игры; "
           "добавление в драфт-пул — в сайдборд, проверка драфт-пула — проверка сайдборда, удаление из пула — "
           "изгнание, прочие эффекты драфт-пула действуют на Адскую библиотеку.",
           short="drafting it = taking it or declining it to the sideboard; draft pool = sideboard.", patterns=(r"\bdraft(?:ed|ing|s)?\b", r"\bdraftpartner", r"\bpacks?\b(?! rat)", r"\bbooster")),
    Ruling("game-start", "Start of the game: 'at the beginning of the game, if this card is in your library' (and "
           "a conspiracy) happens when you take it from the Hell library.",
           "Начало игры: «в начале игры, если эта карта в вашей библиотеке» (и заговоры) срабатывает, когда вы "
           "берёте её из Адской библиотеки.",
           short="'at the beginning of the game' happens when you take it.", patterns=(r"beginning of the game", r"before the game (?:begins|starts)", r"(?:start|begin)s? the game with",
            r"\bconspirac"), unless=r"opening hand"),
    Ruling("ante", "Ante is played, but nothing is anted at the start; a Hell card that would be anted goes to the "
           "sideboard.", "Анте используется, но в начале игры ничего не ставится; Адская карта, которая была бы "
           "поставлена на анте, уходит в сайдборд.", short="nothing is anted at the start; an anted Hell card goes to the sideboard.", patterns=(r"\bante(?:d|s)?\b",)),
    Ruling("companion", "Companion (the old rule): declare any companion in the sideboard as yours when its "
           "condition holds; once a game you may cast it from outside the game.",
           "Компаньон (по старым правилам): любого компаньона из сайдборда можно объявить своим, если выполнено "
           "условие; раз за игру его можно разыграть извне игры.", short="declare a companion from the sideboard; cast it once from outside the game.", patterns=(r"\bcompanion\b",)),
    Ruling("freeze", "Freezing: a frozen spell does not resolve; if the stack or every spell on it is frozen the "
           "turn goes on as if it were empty; a tapped spell is frozen.",
           "Заморозка: замороженное заклинание не разрешается; если стек или все заклинания на нём заморожены, ход "
           "идёт так, будто стек пуст; повёрнутое заклинание заморожено.",
           short="a frozen spell does not resolve; a tapped spell is frozen.", patterns=(r"\bfr(?:ee|o)z", r"\bunfreez", r"\btapped spells?\b", r"spell is tapped")),
    Ruling("sideboard", "Sideboard: 'your sideboard', 'outside the game' and wishes mean the shared sideboard.",
           "Сайдборд: «ваш сайдборд», «вне игры» и желания — это общий сайдборд.",
           short="your sideboard and outside the game are the shared sideboard.", patterns=(r"\bsideboard", r"outside the game")),
    Ruling("owner", "Owner: a Hell card's owner is the first player who moved it out of the Hell library and the "
           "sideboard; an ownerless card going to its owner's library goes to the Hell library, to another of its "
           "owner's zones to the sideboard.",
           "Владелец Адской карты — первый игрок, переместивший её из Адской библиотеки и сайдборда в другую зону; "
           "карта без владельца, уходящая в библиотеку владельца, уходит в Адскую библиотеку, в другую его зону — в "
           "сайдборд.", short="its owner is the first player to move it out of Hell; none: Hell library or sideboard.", patterns=(r"\bowner",)),
    Ruling("zones", "Zones a card names that do not exist yet (the auto zone…) come into being when it appears.",
           "Зоны, которых ещё нет (авто-зона…), появляются, когда появляется такая карта.",
           short="a zone that does not exist yet comes into being.", patterns=(r"\bauto ?zone", r"\bwhammy deck", r"\bzones\b")),
    Ruling("numbers", "Numbers (1, 3) and number words ('one', 'three') differ; both are numerical values; the "
           "article 'a' is neither.", "Числа (1, 3) и числительные («один», «три») различаются; и те и другие — "
           "числовые значения; артикль «a» — ни то ни другое.",
           short="numbers and number words differ; both are numerical values.", patterns=(r"\bnumbers\b(?! of)", r"numerical value", r"\bnumber words?\b", r"\bdigits?\b")),
    Ruling("token-card", "Token cards: a token made outside the battlefield, or a card with the supertype Token, is "
           "a card while it is not on the battlefield.", "Карты-фишки: фишка, созданная вне поля битвы, или карта с "
           "супертипом Token — карта, пока она не на поле битвы.",
           short="a token card is a card off the battlefield.", patterns=(r"\btoken cards?\b", r"supertype token")),
    Ruling("token-copy", "Tokens of existing cards: a token of one half of a double card has only that half; a token "
           "of 'A // B' is a double card.", "Фишки существующих карт: фишка половины двойной карты имеет только её "
           "характеристики; фишка «A // B» — двойная карта.",
           short="a token of half a double card has only that half.", patterns=(r"token (?:that'?s|that is) a copy of (?:a|an|target|that) (?:\w+ )?card", r"token cop(?:y|ies) of .*card")),
    Ruling("colors", "Colours beyond the six (white, blue, black, red, green, purple) come into being for the rest "
           "of the game when a card names one.", "Цвета сверх шести (белый, синий, чёрный, красный, зелёный, "
           "фиолетовый) появляются до конца игры, когда карта их называет.",
           short="a new colour exists for the rest of the game.", patterns=(r"\bnew colou?rs?\b", r"colou?rs? (?:that|which) (?:don'?t|do not) exist", r"\bsixth colou?r",
            r"\b(?:pink|orange|brown|teal|beige)\b (?:mana|spells?|cards?|creatures?|permanents?)")),
)
BY_ID = {ruling.id: ruling for ruling in RULINGS}
_COMPILED = {r.id: (re.compile("|".join(r.patterns)), re.compile(r.unless) if r.unless else None) for r in RULINGS}
_SENTENCE = re.compile(r"[^.!?\n]+")


def rules_text(card: Card) -> str:
    """Every face's rules text and type line, lower-cased, with the card's (and its faces') names blanked out."""
    text = "\n".join(f"{face.type_line}\n{face.oracle_text}" for face in card.faces).lower()
    for name in sorted({card.name, *(face.name for face in card.faces)} - {""}, key=len, reverse=True):
        text = text.replace(name.lower(), "cardname")
    return text


def card_rulings(card: Card) -> tuple[Ruling, ...]:
    """The rulings a card's text calls for, in the table's order."""
    text = rules_text(card)
    found = []
    for ruling in RULINGS:
        pattern, unless = _COMPILED[ruling.id]
        if any(pattern.search(s) and not (unless and unless.search(s)) for s in _SENTENCE.findall(text)):
            found.append(ruling)
    return tuple(found)


def rulings_json(card: Card, lang: str = "en") -> list[dict[str, str]]:
    return [{"id": r.id, "text": r.text(lang)} for r in card_rulings(card)]


def hell_lines(card: Card) -> list[str]:
    """One "Hell (id): short text" line a ruling, for a card's text box, description or card text."""
    return [f"Hell ({r.id}): {r.short}" for r in card_rulings(card)]
