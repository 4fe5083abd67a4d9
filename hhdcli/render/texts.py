"""Every printed label and the rules quick reference, in English and Russian."""

from __future__ import annotations

from dataclasses import dataclass

from hhdcli.colors import COLOR_NAMES
from hhdcli.errors import InputError

LANGS = ("en", "ru")

# Each label in English and Russian, side by side so a missing translation shows at a glance.
_LABELS: dict[str, tuple[str, str]] = {
    "title_sleeve": ("Hell library checklist", "Опись Адской библиотеки"),
    "title_return": ("End-of-session count", "Пересчёт в конце сессии"),
    "subtitle_sleeve": ("Tick each card as it goes into a red sleeve.",
                        "Отмечайте каждую карту, когда она ложится в красный протектор."),
    "subtitle_return": ("Tick each card as it comes back; look for the missing ones in every deck and box.",
                        "Отмечайте каждую вернувшуюся карту; недостающие ищите во всех колодах и коробках."),
    "seed": ("Seed", "Сид"), "date": ("Date", "Дата"), "data": ("Card data", "Данные карт"),
    "sleeves": ("Sleeves", "Протекторы"), "red": ("red", "красные"), "total": ("Total", "Итого"),
    "cards": ("cards", "карт"), "page": ("page", "стр."), "order": ("Library order", "Порядок в библиотеке"),
    # colour groups (the English names are the colour vocabulary's own)
    "W": (COLOR_NAMES["W"], "Белые"), "U": (COLOR_NAMES["U"], "Синие"), "B": (COLOR_NAMES["B"], "Чёрные"),
    "R": (COLOR_NAMES["R"], "Красные"), "G": (COLOR_NAMES["G"], "Зелёные"), "P": (COLOR_NAMES["P"], "Фиолетовые"),
    "M": ("Multicolor", "Многоцветные"), "C": ("Colorless", "Бесцветные"), "L": ("Lands", "Земли"),
    "basic": ("Basic lands", "Базовые земли"),
    # type groups
    "Land": ("Lands", "Земли"), "Creature": ("Creatures", "Существа"), "Planeswalker": ("Planeswalkers", "Мироходцы"),
    "Instant": ("Instants", "Мгновенные заклинания"), "Sorcery": ("Sorceries", "Волшебства"),
    "Artifact": ("Artifacts", "Артефакты"), "Enchantment": ("Enchantments", "Чары"), "Other": ("Other", "Прочее"),
    "A": ("A–Z", "А–Я"),
    "rules_title": ("Hell's Half-Draft — quick reference", "Адский полудрафт — памятка"),
}
LABELS: dict[str, dict[str, str]] = {lang: {key: pair[i] for key, pair in _LABELS.items()}
                                     for i, lang in enumerate(LANGS)}


@dataclass(frozen=True)
class RulesSection:
    heading: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class Example:
    """One card of the worked example: its cost, and the verdict for a deck whose lands make R and G."""

    name: str
    cost: str
    verdict: str
    why: str


# Written by the project from docs/hell-rules.md (and the Russian original beside it).
RULES: dict[str, tuple[RulesSection, ...]] = {
    "en": (
        RulesSection("The Hell library", (
            "Play ordinary Constructed, plus a shared Hell library in red sleeves in the middle of the table.",
            "Build it from Hellscube v1.2 (720 cards) and 250 basic lands (50 each of Plains, Island, Swamp, "
            "Mountain, Forest): shuffle the 970 and take a random tenth, 97 cards. hhd generate does it from a seed.",
        )),
        RulesSection("Opening hand and mulligan", (
            "2 of the 7 cards of your opening hand come from the Hell library.",
            "London mulligan. The Hell library is not shuffled: old Hell cards go to its bottom. Cards you put back "
            "go to the bottom of the library they came from.",
            "Whenever you would draw, you may draw from the Hell library instead (\"when you draw\" still "
            "triggers) — unless it is empty.",
        )),
        RulesSection("Taking a Hell card (the take rule)", (
            "Look at the top card of the Hell library.",
            "1. A land: put it into your hand. In your draw step you may play it at once; it does not count "
            "toward your land for the turn.",
            "2. A spell whose every mana colour is made by the lands of your deck: put it into your hand. In your "
            "draw step you may cast it at once for {2} less. A hybrid symbol counts if any one option does; a "
            "Phyrexian symbol always counts. Purple ({P}, made by Nebula) is a colour.",
            "3. Anything else: take it, or put it on top of the sideboard.",
        )),
        RulesSection("The shared sideboard", (
            "One sideboard for everyone, open and ordered. Any player may play its top card as if it were in "
            "their hand. Cards that would leave the game go there, even non-Hell cards.",
        )),
        RulesSection("End of a game, end of a session", (
            "After a game, every Hell card outside the sideboard and the libraries goes to the bottom of the Hell "
            "library in random order.",
            "Between games of one session nothing is reshuffled or reset: the Hell library and the sideboard stay "
            "as they are. At the end of the session, count the red sleeves back with hhd checklist --mode return.",
        )),
    ),
    "ru": (
        RulesSection("Адская библиотека", (
            "Играем как в обычный Constructed, но в центре стола лежит общая Адская библиотека в красных протекторах.",
            "Она собирается из Hellscube v1.2 (720 карт) и 250 базовых земель (по 50 Равнин, Островов, Болот, Гор "
            "и Лесов): из 970 карт случайно берётся десятая часть, 97 карт. hhd generate делает это по сиду.",
        )),
        RulesSection("Стартовая рука и муллиган", (
            "2 из 7 карт стартовой руки берутся из Адской библиотеки.",
            "Лондонский муллиган. Адская библиотека не перемешивается: старые Адские карты кладутся ей вниз. "
            "Сброшенные карты кладутся вниз той библиотеки, из которой пришли.",
            "Когда вы берёте карту, вместо этого можно взять её из Адской библиотеки (способности «когда вы "
            "берёте карту» срабатывают), если она не пуста.",
        )),
        RulesSection("Как брать Адскую карту (правило взятия)", (
            "Посмотрите верхнюю карту Адской библиотеки.",
            "1. Земля: возьмите её в руку. В свой шаг взятия карты можно сразу её сыграть; она не считается "
            "в лимит земель за ход.",
            "2. Заклинание, все цвета маны которого есть на землях вашей колоды: возьмите в руку. В свой шаг "
            "взятия карты можно сразу разыграть его на {2} дешевле. Гибридный символ считается, если есть хотя бы "
            "один вариант; фирексианский — всегда. Фиолетовый ({P}, даёт Небула) — тоже цвет.",
            "3. Иначе: возьмите карту или положите её наверх сайдборда.",
        )),
        RulesSection("Общий сайдборд", (
            "Сайдборд один на всех, открытый и упорядоченный. Любой игрок может сыграть его верхнюю карту, как "
            "если бы она была у него в руке. Карты, покидающие игру, попадают туда, даже не Адские.",
        )),
        RulesSection("Конец игры и конец сессии", (
            "После игры все Адские карты вне сайдборда и библиотек кладутся вниз Адской библиотеки в случайном "
            "порядке.",
            "Между играми одной сессии ничего не перемешивается и не сбрасывается: Адская библиотека и сайдборд "
            "остаются как есть. В конце сессии пересчитайте красные протекторы: hhd checklist --mode return.",
        )),
    ),
}

EXAMPLE_INTRO = {
    "en": "Worked example — the lands of your deck make R and G:",
    "ru": "Пример — земли вашей колоды дают R и G:",
}

EXAMPLES: dict[str, tuple[Example, ...]] = {
    "en": (
        Example("Pyrohyperspasm", "{3}{2/R}{H/R}{R}{R}{R}", "take",
                "{2/R} is hybrid (either option), {H/R} is Phyrexian (always), R is made."),
        Example("Pill Bug", "{G/U}{G/U}", "take", "hybrid: G is one of the options."),
        Example("Murder of Storm Crows", "{1}{U/BB}", "choice", "neither U nor B is made: take it or sideboard it."),
    ),
    "ru": (
        Example("Pyrohyperspasm", "{3}{2/R}{H/R}{R}{R}{R}", "взять",
                "{2/R} гибридный (любой вариант), {H/R} фирексианский (всегда), R есть."),
        Example("Pill Bug", "{G/U}{G/U}", "взять", "гибрид: G — один из вариантов."),
        Example("Murder of Storm Crows", "{1}{U/BB}", "выбор", "нет ни U, ни B: взять или в сайдборд."),
    ),
}


def labels(lang: str) -> dict[str, str]:
    if lang not in LABELS:
        raise InputError(f"--lang {lang!r} is not available", "use en or ru")
    return LABELS[lang]
