"""An action under way (`Act`): its transaction, the views, who acts and in which language, and what every
handler does with a card on its way: put it where the rules said (a Hell card coming into the open brings the
zones it names), name it in a log line as the others may read it, say its moments. The handlers (handlers.py,
hell_actions.py) take one each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hhdcli.moments import Moment, moments_at
from hhdcli.table.game import rules
from hhdcli.table.game.errors import TableError
from hhdcli.table.game.rules import End, Zone
from hhdcli.table.game.store import Tx
from hhdcli.table.game.views import Views
from hhdcli.table.game.zones import MadeZone, zone_open, zones_of

Answer = dict[str, Any]

LOOKING = (Moment.LOOK,)  # the moments a draw's look at the card brings
TAKING = (Moment.DRAFT, Moment.GAME_START)  # and a take
DECLINING = (Moment.DRAFT,)  # and a decline: it never was in the player's library


@dataclass(frozen=True)
class Act:
    """One action under way: its transaction, the views, who acts (None: the host) and in which language."""

    tx: Tx
    views: Views
    actor: str | None
    lang: str
    seed: str  # the secret of a session from before one was kept

    def player(self) -> str:
        """The acting player, seated at this table (an action only a player takes)."""
        player = self.actor or ""
        seated_colors(self.tx, player)
        return player

    def name(self, position: int) -> str:
        return self.views.name(position, None if position in self.views.cards else self.tx.own_name(position))

    def card_name(self, position: int) -> str:
        return self.views.cards[position].name

    def secret(self) -> str:
        """The session's secret (a session from before it was kept has its seed): the faces' ids and the
        end-of-game shuffles are made from it."""
        return self.tx.meta("secret") or self.seed

    def describe(self, position: int, name: str | None = None) -> Answer:
        return self.views.describe(position, self.lang, name)

    def put(self, position: int, moved: rules.Move) -> None:
        """A card moved where the rules said; a Hell card that comes into the open brings the zones it names into
        being (zones.py)."""
        self.tx.move(position, moved.zone, moved.end, moved.player, moved.made, moved.depth, moved.face_down)
        if not moved.face_down and (moved.zone in rules.OPEN_ZONES or moved.zone == Zone.MADE and zone_open(moved.made)):
            self.appear(position)

    def seen_name(self, place: rules.Place | None, position: int) -> dict[str, Any]:
        """A card as a log line names it: by its name, or (face down, or where the others cannot see it) as a
        line its player alone reads whole (views.seen_detail)."""
        name = {"name": self.name(position)}
        if place is not None and place.face_down:
            return {**name, "face_down": True, "private": True}
        if place is not None and not rules.may_see(place, None):
            return {**name, "private": True}
        return name

    def appear(self, position: int) -> None:
        """The rules: "Cards may name zones that do not exist; they are created when such a card appears": a
        Hell card seen by all (played, declined, revealed) brings each zone it names into being, each player's
        one with the named cards it starts with; the action's log entry says so, and its undo ends them."""
        card = self.views.cards.get(position)
        made = set(self.tx.made_zones())
        new = [z for z in zones_of(card) if z.id not in made] if card is not None else []
        created: list[int] = []
        for zone in new:
            self.tx.make_zone(zone.id)
            for player in [None] if zone.shared else self.tx.names():
                created += [self.add_named(name, player, zone) for name in zone.starts]
        if new:
            self.tx.amend({"zones": [z.id for z in new]}, created, [z.id for z in new])

    def add_named(self, name: str, player: str | None, zone: MadeZone) -> int:
        """A card known by its name (not a Hell card) made in a created zone."""
        position = self.tx.last_own_card() + 1
        self.tx.add_own_card(position, player, name)
        self.tx.move(position, Zone.MADE, End.BOTTOM, player, zone.id)
        return position

    def moments(self, position: int, happening: tuple[Moment, ...]) -> list[str]:
        """The moments of a Hell card that happen now (the log says them on every page)."""
        card = self.views.cards.get(position)
        return [str(m.moment) for m in moments_at(card, happening)] if card is not None else []


Handler = Callable[..., Answer]


def seated_colors(tx: Tx, player: str) -> str:
    """A seated player's colors (a name nobody sits under is refused)."""
    found = tx.colors(player)
    if found is None:
        raise TableError("no player named {player} at this table", status=404, player=player)
    return found


