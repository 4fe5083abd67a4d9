"""One handler per action of the table, in one table (`HANDLERS`): each reads what it needs through the store's
transaction, asks the rules (pure) what it does and who may do it, writes their answer, logs it, and answers with
the views' description of the cards, in the asker's language. The session (session.py) opens the transaction and
calls the handler its action names: `session.act(Action.DRAW, "Anna")`.

Who acts is the caller's business (hhdcli.table.web.routes checks tokens); each handler is told its actor: a
player, or None for the host (the laptop running the table).
"""

from __future__ import annotations

import secrets

from hhdcli.table.game import hell_actions as hell
from hhdcli.table.game import hell_rules, rules
from hhdcli.table.game.acting import DECLINING, LOOKING, TAKING, Act, Answer, Handler, seated_colors
from hhdcli.table.game.errors import Depends
from hhdcli.table.game.rules import OWN_CARDS, Action, Destination, End, Zone
from hhdcli.table.game.store import Tx
from hhdcli.table.game.views import public_entry, shown_detail
from hhdcli.table.game.zones import zones_of


def opening(tx: Tx, player: str, game: int | None = None) -> tuple[rules.Opening | None, list[int]]:
    """A player's opening hand this game (`game`, when the caller read it): None, 'dealt' or 'kept', and the
    Hell cards last dealt."""
    return rules.opening_phase(tx.latest_opening(tx.game() if game is None else game, player))


def life_of(tx: Tx, player: str) -> int:
    found = next(p["life"] for p in tx.players() if p["name"] == player)
    return int(tx.meta("life_start") or rules.LIFE_START) if found is None else int(found)


def set_life_start(tx: Tx, actor: str | None, life: int) -> bool:
    """Once a game has begun, its players keep the life they have (a total still at the old start is written
    down as it stands) and the new start comes with the next game: True then."""
    if not tx.game_begun():
        tx.log_action(actor, Action.LIFE_START, {"count": life}, [], turn=True)
        tx.set_meta("life_start", str(life))
        return False
    names = tx.names()
    tx.log_action(actor, Action.LIFE_START, {"count": life, "next": True}, [], players=names, turn=True)
    for name in names:
        tx.set_life(name, life_of(tx, name))
    tx.set_meta("life_start", str(life))
    return True


# --- drawing and the opening hand -------------------------------------------------------------------------


def draw(a: Act) -> Answer:
    """The top card for a player: a land or a take goes to their hand; a choice waits for take or decline."""
    player, tx = a.actor or "", a.tx
    mine = seated_colors(tx, player)
    top = rules.drawn_card(player, bool(tx.held(player, Zone.PENDING)), tx.top(Zone.LIBRARY))
    verdict = a.views.judged(top, mine).verdict
    rules.may_draw(player, opening(tx, player)[0])
    draw_step = rules.in_draw_step(player, tx.meta("turn"), tx.meta("step"))
    zone = rules.drawn_to(verdict)
    now = a.moments(top, LOOKING + (TAKING if zone == Zone.HAND else ()))  # a card into the hand is taken too
    tx.log_action(player, Action.DRAW, {"position": top, "name": a.card_name(top), "verdict": verdict,
                                        "draw_step": draw_step, **({"moment": now} if now else {})}, [top])
    tx.move(top, zone, End.BOTTOM, player)
    return {**a.views.verdict(top, mine, a.lang, draw_step), "now": now}


def _pending(a: Act) -> int:
    player = a.player()
    return rules.waiting_card(player, next(iter(a.tx.held(player, Zone.PENDING)), None))


def take(a: Act) -> Answer:
    """The waiting card into the player's hand: its "when you draft" and "at the beginning of the game" happen
    now."""
    position = _pending(a)
    now = a.moments(position, TAKING)
    a.tx.log_action(a.actor, Action.TAKE, {"position": position, "name": a.card_name(position),
                                           **({"moment": now} if now else {})}, [position])
    a.tx.move(position, Zone.HAND, End.BOTTOM, a.actor)
    return {**a.describe(position), "now": now}


def decline(a: Act) -> Answer:
    """The drawn card goes on top of the shared sideboard: its "when you draft" happens now."""
    position = _pending(a)
    now = a.moments(position, DECLINING)
    a.tx.log_action(a.actor, Action.DECLINE, {"position": position, "name": a.card_name(position),
                                              **({"moment": now} if now else {})}, [position])
    a.put(position, rules.Move(Action.DECLINE, Zone.SIDEBOARD, End.TOP, None))
    return {**a.describe(position), "now": now}


def _deciding(a: Act) -> list[int]:
    player = a.player()
    return rules.deciding(player, *opening(a.tx, player))


def opening_hand(a: Act) -> Answer:
    """The 2 Hell cards of a player's opening hand, from the top: once a game (a mulligan deals anew)."""
    player, tx = a.player(), a.tx
    rules.may_deal(player, opening(tx, player)[0])
    positions = rules.deal(tx.top(Zone.LIBRARY, rules.OPENING_HAND))
    now = sorted({m for p in positions for m in a.moments(p, LOOKING + TAKING)})
    tx.log_action(player, Action.OPENING_HAND, {"dealt": positions, "count": len(positions),
                                                **({"moment": now} if now else {})}, positions)
    for position in positions:
        tx.move(position, Zone.HAND, End.BOTTOM, player)
    return {"cards": [{**a.describe(p), "now": a.moments(p, LOOKING + TAKING)} for p in positions]}


def mulligan(a: Act) -> Answer:
    """A London mulligan: the Hell cards of the player's opening hand go to the bottom of the Hell library in
    the order they were dealt, not shuffled, and two new ones are dealt from the top."""
    tx = a.tx
    returned = rules.mulligan_returns(_deciding(a), tx.held(a.player()))
    new = rules.deal(tx.top(Zone.LIBRARY, rules.OPENING_HAND), returned)
    tx.log_action(a.actor, Action.MULLIGAN, {"returned": returned, "dealt": new, "count": len(new)},
                  list(dict.fromkeys(returned + new)))
    for position in returned:
        tx.move(position, Zone.LIBRARY, End.BOTTOM)
    for position in new:
        tx.move(position, Zone.HAND, End.BOTTOM, a.actor)
    return {"to_bottom": returned, "cards": [{**a.describe(p), "now": a.moments(p, LOOKING + TAKING)} for p in new]}


def keep(a: Act, bottom: list[int]) -> Answer:
    """The end of the mulligans: the Hell cards the player ticked (none, some or all) go to the bottom of the
    Hell library in the order ticked; the rest stay in hand. Nothing is chosen for the player."""
    _deciding(a)
    player = a.player()
    chosen = rules.kept_bottom(player, bottom, a.tx.held(player))
    a.tx.log_action(player, Action.KEEP, {End.BOTTOM: chosen, "count": len(chosen)}, chosen)
    for position in chosen:
        a.tx.move(position, Zone.LIBRARY, End.BOTTOM)
    return {"to_bottom": chosen}


# --- moving cards -------------------------------------------------------------------------------------------


def play(a: Act, position: int) -> Answer:
    """A Hell card from the player's hand onto the battlefield: open to everyone now, and back to the Hell
    library at the end of the game."""
    player = a.player()
    rules.playable(player, position, a.tx.held(player))
    return move(a, position, Destination.BATTLEFIELD)


def move(a: Act, position: int, to: Destination, whose: str | None = None, zone: str | None = None,
         at: int | None = None, face_down: bool = False) -> Answer:
    """A card moved by a player (or the host's board, None) to a zone the rules name (rules.Destination):
    one of theirs from their hand, library or created deck, or an open one (anyone's effect may move it: played
    cards, any card of the sideboard, an open created zone's). A card leaving the game (ante, an effect…) goes
    on top of the sideboard: a played card by anyone's effect, a card in hand or in their library by its holder.
    `whose`: the player whose zones a card from the sideboard goes to (the mover's unless named), or whose created
    zone, or the player a card is given to (their hand or library, Lump of Coal) or put under (the battlefield);
    `zone`: which created zone; `at`: N-th from the top of a library; `face_down`: played, exiled or put into a
    zone face down (its face its controller's alone)."""
    tx, name = a.tx, a.name(position)
    found = tx.place(position)
    if to == Destination.SIDEBOARD:  # on the sideboard already: said, as the sideboard is open to all
        rules.to_sideboard(found, a.actor, position, name)
    place = rules.movable(found, a.actor, position)
    names = tx.names()
    made = tx.made_zones()
    # a card put face down into a zone it names brings the zone into being (a hidden agenda's command zone): the
    # table sees a face-down card there, not which
    naming = {z.id for z in zones_of(a.views.cards[position])} if face_down and position in a.views.cards else set()
    new_zone = [zone] if zone in naming and zone not in made else []
    where = rules.Where(rules.seated_player(names, whose) if whose is not None else None,
                        hell_rules.existing_zone(zone, made + new_zone) if to == Destination.ZONE else None, at, face_down)
    moved = rules.move_of(place, a.actor, to, name, where)
    action = Action.FROM_SIDEBOARD if place.zone == Zone.SIDEBOARD else moved.action
    detail = {"position": position, "name": name, "from": place.zone,
              **({"end": moved.end} if moved.zone == Zone.DECK and moved.depth is None else {}),
              **({"at": moved.depth} if moved.depth else {"shuffled": True} if moved.depth == 0 else {}),
              **({"zone": moved.made} if moved.made else {}),
              **({"to": str(to), "whose": moved.player} if action in (Action.FROM_SIDEBOARD, Action.TO_ZONE,
                                                                       Action.FACE_DOWN) else {}),
              **({"whose": moved.player} if moved.player != (place.owner or place.player) and moved.player else {})}
    tx.log_action(a.actor, action, detail, [position], zones=[moved.made] if moved.made else ())
    if new_zone:
        tx.make_zone(new_zone[0])
        tx.amend({"zones": new_zone}, zones=new_zone)
    a.put(position, moved)
    return {**a.describe(position, name), "zone": moved.zone}


def play_sideboard_top(a: Act, position: int | None = None) -> Answer:
    """Anyone may play the sideboard's top card as if it were in their hand; an effect may let a player cast
    another of its cards (Sidecaster Mage): `position`. It is played, open to all."""
    player = a.player()
    order = a.tx.top(Zone.SIDEBOARD, 10_000)
    card = rules.sideboard_top(order) if position is None else \
        hell_rules.on_sideboard(a.tx.place(position), position).position
    name = a.name(card)
    a.tx.log_action(player, Action.PLAY_FROM_SIDEBOARD, {"position": card, "name": name,
                                                        "at": order.index(card) + 1}, [card])
    a.put(card, rules.Move(Action.PLAY_FROM_SIDEBOARD, Zone.BATTLEFIELD, End.BOTTOM, player))
    return a.describe(card, name)


def own_card_to_sideboard(a: Act, name: str) -> Answer:
    """A card of a player's own deck leaves the game: by the rules it goes on top of the sideboard too, where
    anyone may play it. It is known by its name and stays its player's."""
    player, tx = a.player(), a.tx
    position = tx.last_own_card() + 1
    tx.log_action(player, Action.OWN_CARD_TO_SIDEBOARD, {"position": position, "name": name}, [], (position,))
    tx.add_own_card(position, player, name)
    tx.move(position, Zone.SIDEBOARD, End.TOP)
    return {**a.views.describe(position, name=name), "owner": player}


def to_hell_library(a: Act, position: int, end: End) -> Answer:
    """An ownerless Hell card on the sideboard put into "its owner's library": the Hell library (top or
    bottom, as the effect says)."""
    rules.to_hell_library(a.tx.place(position), a.name(position))
    a.tx.log_action(a.actor, Action.TO_HELL_LIBRARY, {"position": position, "name": a.card_name(position),
                                                      "end": end}, [position])
    a.tx.move(position, Zone.LIBRARY, End(end))
    return a.describe(position)


# --- the battlefield's cards --------------------------------------------------------------------------------


def tap(a: Act, position: int, tapped: bool) -> Answer:
    """A card on the battlefield tapped or untapped (anyone's effect may: it is open to all)."""
    place = rules.on_battlefield(a.tx.place(position), position)
    name = a.name(position)
    a.tx.log_action(a.actor, Action.TAP if tapped else Action.UNTAP, {"position": position, "name": name},
                    [position])
    a.tx.set_tapped(position, tapped)
    return {"position": position, "name": name, "tapped": tapped, "was": place.tapped}


def card_counter(a: Act, position: int, kind: str, delta: int) -> Answer:
    """Counters of a kind put on (or taken off) a face-up card open to all: on the battlefield, in a graveyard, in
    exile, in an open created zone (time counters on a suspended card)."""
    place = hell_rules.counted_place(a.tx.place(position), position)
    name = a.name(position)
    counters = rules.counted(place.counters, kind, delta, name)
    a.tx.log_action(a.actor, Action.CARD_COUNTER, {"position": position, "name": name, "kind": kind,
                                                   "delta": delta, "count": counters.get(kind, 0)}, [position])
    a.tx.set_counters(position, counters)
    return {"position": position, "name": name, "counters": counters}


def tokens(a: Act, position: int, token: str, delta: int) -> Answer:
    """Tokens a card on the battlefield made, come into play (or gone), counted with it by its controller."""
    name = a.name(position)
    place = rules.token_maker(a.tx.place(position), a.actor, position, name)
    made = a.views.made_names(position)
    counters = rules.tokens_counted(place.counters, token, made, delta, name)
    a.tx.log_action(a.actor, Action.TOKENS, {"position": position, "name": name, "token": made[token],
                                             "delta": delta, "count": counters.get(token, 0)}, [position])
    a.tx.set_counters(position, counters)
    return {"position": position, "name": name, "token": made[token], "count": counters.get(token, 0)}


# --- decks, life and counters -------------------------------------------------------------------------------


def deck(a: Act, colors: str) -> Answer:
    """A player's colors, from their deck (read before the action: hhdcli.table.game.decks) or picked; the take
    rule uses them from the next draw."""
    player = a.player()
    a.tx.log_action(player, Action.DECK, {"whose": player, "colors": colors}, [], players=[player])
    a.tx.set_colors(player, colors)
    return {"player": player, "colors": colors}


def life(a: Act, whose: str, delta: int) -> Answer:
    """A player's life total changed by `delta` (by anyone at the table: damage is dealt by others)."""
    rules.seated_player(a.tx.names(), whose)
    now = life_of(a.tx, whose) + delta
    a.tx.log_action(a.actor, Action.LIFE, {"whose": whose, "delta": delta, "count": now}, [], players=[whose])
    a.tx.set_life(whose, now)
    return {"player": whose, "life": now}


def player_counter(a: Act, whose: str, kind: object, delta: int, source: object = None) -> Answer:
    """Counters of a kind (rules.PlayerCounter) on a player: poison, energy, experience, or commander damage
    from `source`'s commander."""
    names = a.tx.names()
    rules.seated_player(names, whose)
    found = rules.player_counter_kind(kind)
    key = rules.commander_key(names, whose, source) if found == rules.PlayerCounter.COMMANDER else found
    had = next(p["counters"] for p in a.tx.players() if p["name"] == whose)
    counters = rules.counted(had, key, delta, whose)
    a.tx.log_action(a.actor, Action.PLAYER_COUNTER, {
        "whose": whose, "kind": found, "delta": delta, "count": counters.get(key, 0),
        **({"source": source} if key != found else {})}, [], players=[whose])
    a.tx.set_player_counters(whose, counters)
    return {"player": whose, "counters": counters}


def life_start(a: Act, life: int) -> Answer:
    """The host sets the starting life: at once before the game has begun, else from the next game."""
    return {"life_start": life, "next": set_life_start(a.tx, a.actor, life)}


# --- dice, turns and the end of a game ----------------------------------------------------------------------


def die(a: Act, sides: int) -> Answer:
    """A die rolled by the table (the server draws it, and the log keeps it: nobody rolls again unseen)."""
    result = secrets.randbelow(rules.die_sides(sides)) + 1
    a.tx.log_action(a.actor, Action.DIE, {"sides": sides, "result": result}, [])
    return {"sides": sides, "result": result}


def coin(a: Act) -> Answer:
    result = tuple(rules.Coin)[secrets.randbelow(2)]
    a.tx.log_action(a.actor, Action.COIN, {"result": result}, [])
    return {"result": result}


def first_player(a: Act) -> Answer:
    """A random first player, whose turn it now is (its untap step)."""
    names = a.tx.names()
    first = names[secrets.randbelow(len(names))] if names else rules.next_turn(names, None)
    a.tx.log_action(a.actor, Action.FIRST_PLAYER, {"whose": first}, [], turn=True)
    for key, value in (("first", first), ("turn", first), ("step", rules.STEPS[0])):
        a.tx.set_meta(key, value)
    return {"first": first}


def next_turn(a: Act) -> Answer:
    """The next player's turn, from its untap step."""
    now = rules.next_turn(a.tx.names(), a.tx.meta("turn"))
    a.tx.log_action(a.actor, Action.TURN, {"whose": now}, [], turn=True)
    a.tx.set_meta("turn", now)
    a.tx.set_meta("step", rules.STEPS[0])
    return {"turn": now, "step": rules.STEPS[0]}


def step(a: Act, step: str) -> Answer:
    rules.turn_step(step)
    a.tx.log_action(a.actor, Action.STEP, {"whose": a.tx.meta("turn"), "step": step}, [], turn=True)
    a.tx.set_meta("step", step)
    return {"step": step}


def end_game(a: Act, confirm: bool = True, confirmed: int | None = None) -> Answer:
    """The Hell cards outside the libraries and the sideboard go to the bottom of the Hell library in random
    order, seeded by the session's secret and the game; players' own cards go home; the next game begins,
    with ownership afresh (an ownerless card on the sideboard may be put into the Hell library again)."""
    tx = a.tx
    game = tx.game()
    rules.game_to_end(confirm, confirmed, game)
    outside = tx.in_zones(rules.PLAYERS_ZONES) + [p for p in tx.in_zones([Zone.DECK]) if p >= OWN_CARDS]
    order, home = rules.end_of_game(outside, a.secret(), game)
    owned = tx.owned_hell_cards((Zone.LIBRARY, Zone.SIDEBOARD))
    # the log says how many, never which: the order at the bottom is the library's secret
    tx.log_action(a.actor, Action.END_OF_GAME, {"game": game, "count": len(order)},
                  list(dict.fromkeys(order + home + owned)), players=tx.names(), turn=True, ended=tx.made_zones())
    tx.end_zones()  # the zones Hell cards created last to the end of the game
    tx.reset_players()  # life back to the start, no counters, nobody's turn yet
    for key in ("turn", "step", "first"):
        tx.unset_meta(key)
    for position in order:
        tx.move(position, Zone.LIBRARY, End.BOTTOM)
    tx.delete_cards(home)
    tx.clear_owners()
    tx.set_game(game + 1)
    return {"game": game + 1, "count": len(order)}


def undo(a: Act, anyone: bool = False) -> Answer:
    """Take back the asking player's own last action, even when others acted since, unless later actions
    moved the same cards (those are named, and the undo refused). With `anyone` (confirmed), or for the
    host, the table's last action whoever took it."""
    tx, player = a.tx, a.actor
    own = tx.last_entry(player) if player is not None and not anyone else None
    last = tx.last_entry() if own is None else own
    entry = rules.entry_to_undo(player, anyone, own, last)
    later = rules.blocking(entry, tx.entries_after(entry.id))
    if later:
        raise Depends(entry.action, [(e.player, e.action) for e in later[:3]])
    tx.undo_entry(entry.id)
    # a line says who took back what, on every page (the undone line stays too, marked): in a game of hidden
    # cards an action that silently vanished would invite suspicion; the undone line's own detail, kept whole:
    # each viewer reads the undo as they read that line (views)
    tx.log_action(player, Action.UNDO, {"undone": entry.action, "whose": entry.player,
                                        "entry": shown_detail(entry.detail)}, [])
    shown = public_entry({"id": entry.id, "game": entry.game, "player": entry.player, "action": entry.action,
                          "detail": entry.detail}, player)
    return {"undone": entry.action, "player": entry.player, "detail": shown["detail"]}


__all__ = ["HANDLERS", "Act", "Answer", "opening", "seated_colors", "set_life_start"]

# Each action a request may ask for, and its handler (the moves a page asks by their destination share one:
# rules.MOVES).
HANDLERS: dict[Action, Handler] = {
    Action.DRAW: draw, Action.TAKE: take, Action.DECLINE: decline, Action.OPENING_HAND: opening_hand,
    Action.MULLIGAN: mulligan, Action.KEEP: keep, Action.PLAY: play,
    **dict.fromkeys(rules.MOVES.values(), move), Action.PLAY_FROM_SIDEBOARD: play_sideboard_top,
    Action.OWN_CARD_TO_SIDEBOARD: own_card_to_sideboard, Action.TO_HELL_LIBRARY: to_hell_library,
    Action.TAP: tap, Action.CARD_COUNTER: card_counter, Action.TOKENS: tokens, Action.DECK: deck,
    Action.LIFE: life, Action.PLAYER_COUNTER: player_counter, Action.LIFE_START: life_start, Action.DIE: die,
    Action.COIN: coin, Action.FIRST_PLAYER: first_player, Action.TURN: next_turn, Action.STEP: step,
    Action.END_OF_GAME: end_game, Action.UNDO: undo,
    Action.SHUFFLE_SIDEBOARD: hell.shuffle_sideboard, Action.RANDOM_FROM_SIDEBOARD: hell.random_from_sideboard,
    Action.RANDOM_HELL_CARD: hell.random_hell_card, Action.COMPANION: hell.companion,
    Action.CAST_COMPANION: hell.cast_companion, Action.REVEAL: hell.reveal, Action.ZONE_ADD: hell.zone_add,
    Action.SHUFFLE_ZONE: hell.shuffle_zone, Action.REVEAL_ZONE: hell.reveal_zone,
    Action.TAKE_FROM_ZONE: hell.take_from_zone, Action.NOTE: hell.note, Action.FACE_UP: hell.face_up,
    Action.CONTROL: hell.control, Action.TOKEN_CARD: hell.token_card,
}
