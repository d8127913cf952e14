"""A GroupTravelBench plan as a traveller reads it: day by day, who is where, when, at what cost.

Any plan JSON is accepted: it is read by the lenient parser (`verifier.model.plan_parse`), the
parts that could be read are shown and the others are listed with their JSON path. Each day
has a heading (number, weekday, date, the cities in order), one row per item (time range,
what and where, who, cost per person in CNY) and a footer (the night's hotel, the day's cost
per traveller). Where the group splits, each team's items are listed together, labelled with
its members, after a row announcing the split. Costs are the plan's own `avg_cost` (CNY per
person, as GroupTravelBench declares them); a traveller pays for the items they take part in.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Column, Table
from rich.text import Text

from verifier.model.plan import ALL, Activity, CityBlock, Day, IntercityTransport
from verifier.model.plan_parse import parse_plan
from verifier.model.task import Task
from verifier.strict.meals import MEALS

WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
EVERYONE = "everyone"
PER_PERSON = "per person"
WHO_WIDTH = 14
NARROW = 60
"""Below this many columns the "who" column is narrower and the cost header shorter."""
NARROW_WHO = 8


@dataclass(frozen=True)
class Row:
    """One line of a day: time range, what and where, who, cost per person (CNY)."""

    time: str
    what: str
    who: str
    cost: str
    style: str = ""


@dataclass(frozen=True)
class Charge:
    """A cost per person (None: not declared) paid by `payers` (empty: everyone); rests are
    unpriced (`priced` False)."""

    amount: float | None
    payers: tuple[str, ...]
    priced: bool = True


class Travellers:
    """Who travels: the task's users and children (`known`), else the names the plan mentions."""

    def __init__(self, names: list[str], *, known: bool) -> None:
        self.names, self.known = names, known

    def team(self, participants: list[str]) -> tuple[str, ...]:
        """The named members of an item (empty: everyone, i.e. "All" or all the task's travellers)."""
        everyone = self.known and set(participants) >= set(self.names)
        if ALL in participants or not participants or everyone:
            return ()
        return tuple(dict.fromkeys(participants))

    def label(self, team: tuple[str, ...]) -> str:
        return ", ".join(team) if team else EVERYONE


@dataclass(frozen=True)
class DayView:
    """One day: heading, rows, the night's hotel and the day's cost per traveller."""

    heading: str
    rows: list[Row]
    night: str
    cost: str


@dataclass(frozen=True)
class RenderedPlan:
    """A rendered plan (a rich renderable): column widths follow the console's width."""

    heading: str | None
    days: list[DayView]
    total: str | None
    unreadable: list[str]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        narrow = options.max_width < NARROW
        longest = max((cell_len(row.who) for day in self.days for row in day.rows), default=0)
        who = min(longest, NARROW_WHO if narrow else WHO_WIDTH)
        if self.heading is not None:
            yield Text(self.heading + "\n", style="bold")
        for day in self.days:
            yield Text(day.heading, style="bold cyan")
            table = Table(
                Column("time", no_wrap=True),
                Column("what", overflow="fold", ratio=1),
                Column("who", overflow="fold", width=who),
                Column("CNY" if narrow else "CNY/person", justify="right", no_wrap=True),
                box=None,
                pad_edge=False,
                padding=(0, 1),
                header_style="dim",
                expand=True,
            )
            for row in day.rows:
                table.add_row(row.time, row.what, row.who, row.cost, style=row.style or None)
            yield table
            yield Text(f"  night: {day.night}\n  day's cost {day.cost}\n", style="dim")
        if self.total is not None:
            yield Text(f"Trip total {self.total}", style="bold")
        if self.unreadable:
            yield Text(
                f"Not shown: {len(self.unreadable)} part(s) of the plan could not be read", style="yellow"
            )
            yield from (Text(f"  {line}") for line in self.unreadable)


def render_plan(raw: object, task: Task | None = None) -> RenderedPlan:
    """The whole plan: optional task heading, every readable day, trip totals, unreadable parts."""
    parsed = parse_plan(raw)
    travellers = Travellers(_travellers(task, parsed.plan.days), known=task is not None)
    days: list[DayView] = []
    trip: list[Charge] = []
    for day in parsed.plan.days:
        charges: list[Charge] = []
        days.append(_day(day, travellers, charges))
        trip.extend(charges)
    return RenderedPlan(
        heading=None if task is None else _task_heading(task),
        days=days,
        total=_totals(trip, travellers) if days else None,
        unreadable=[f"{item.loc}: {item.message}" for item in parsed.violations],
    )


def _travellers(task: Task | None, days: list[Day]) -> list[str]:
    if task is not None:
        return [*task.user_names, *task.child_names]
    named = (
        name
        for day in days
        for segment in day.city_segments
        if isinstance(segment, CityBlock)
        for activity in segment.activities
        for name in activity.participants
        if name != ALL
    )
    return list(dict.fromkeys(named))


def _task_heading(task: Task) -> str:
    children = f"; child {', '.join(task.child_names)}" if task.child_names else ""
    return f"{task.task_id} · {task.query}\ntravellers: {', '.join(task.user_names)}{children}"


def _day(day: Day, travellers: Travellers, charges: list[Charge]) -> DayView:
    weekday = WEEKDAYS[day.date.weekday()]
    rows = list(_rows(day, travellers, charges))
    hotels = [
        f"{activity.location}, {segment.city}"
        for segment in day.city_segments
        if isinstance(segment, CityBlock)
        for activity in segment.activities
        if activity.type == "hotel"
    ]
    return DayView(
        heading=f"Day {day.day} · {weekday} {day.date.isoformat()} · {' → '.join(_cities(day))}",
        rows=rows,
        night=" + ".join(hotels) or "no hotel",
        cost=_totals(charges, travellers),
    )


def _cities(day: Day) -> list[str]:
    """The day's cities in order, one name per stay (a leg's ends and the blocks' cities)."""
    stops: list[str] = []
    for segment in day.city_segments:
        names = (
            [segment.from_city, segment.to_city]
            if isinstance(segment, IntercityTransport)
            else [segment.city]
        )
        for name in names:
            if not stops or not _same_city(stops[-1], name):
                stops.append(name)
    return stops


def _same_city(a: str, b: str) -> bool:
    return a.removesuffix("市") == b.removesuffix("市")


def _rows(day: Day, travellers: Travellers, charges: list[Charge]) -> Iterator[Row]:
    for segment in day.city_segments:
        if isinstance(segment, IntercityTransport):
            charges.append(Charge(segment.avg_cost, ()))
            what = f"{segment.transport_mode} {segment.from_city} → {segment.to_city}"
            yield Row(
                _span(segment.start, segment.end),
                what + _next_day(segment),
                EVERYONE,
                _cost(segment.avg_cost),
                "bold",
            )
        else:
            yield from _block_rows(segment.activities, travellers, charges)


def _block_rows(activities: list[Activity], travellers: Travellers, charges: list[Charge]) -> Iterator[Row]:
    """Rows of one city block; a run of items done in teams is listed team by team."""
    run: list[Activity] = []
    for activity in [*activities, None]:
        if activity is not None and travellers.team(activity.participants):
            run.append(activity)
            continue
        if run:
            yield from _split_rows(run, travellers, charges)
            run = []
        if activity is not None:
            charges.append(Charge(activity.avg_cost, (), activity.type != "rest"))
            yield _row(activity, EVERYONE)


def _split_rows(run: list[Activity], travellers: Travellers, charges: list[Charge]) -> Iterator[Row]:
    teams = list(dict.fromkeys(travellers.team(activity.participants) for activity in run))
    if len(teams) > 1:
        names = " | ".join(travellers.label(team) for team in teams)
        yield Row("", f"the group splits: {names}", "", "", "italic")
    for team in teams:
        for activity in run:
            if travellers.team(activity.participants) == team:
                charges.append(Charge(activity.avg_cost, team, activity.type != "rest"))
                yield _row(activity, travellers.label(team))


def _row(activity: Activity, who: str) -> Row:
    return Row(
        _span(activity.start, activity.end), _what(activity), who, _cost(activity.avg_cost, activity.type)
    )


def _what(activity: Activity) -> str:
    match activity.type:
        case "attraction":
            return f"visit {activity.location}"
        case "food":
            return f"{_meal(activity)} at {activity.location}"
        case "hotel":
            return f"hotel {activity.location}"
        case "rest":
            return f"rest at {activity.location}" if activity.location else "rest"
        case _:
            return f"{activity.transport_mode} {activity.from_place} → {activity.to}{_next_day(activity)}"


def _meal(activity: Activity) -> str:
    """The meal whose window holds the item (strict's windows), else "meal"."""
    for name, start, end in MEALS:
        if start <= activity.start and activity.end <= end and activity.start < activity.end:
            return name
    return "meal"


def _next_day(item: Activity | IntercityTransport) -> str:
    return " (arrives next day)" if item.end < item.start else ""


def _span(start: int, end: int) -> str:
    return f"{start // 60:02d}:{start % 60:02d}–{end // 60:02d}:{end % 60:02d}"


def _cost(amount: float | None, kind: str = "") -> str:
    if amount is None:
        return "" if kind == "rest" else "?"
    return _money(amount)


def _money(amount: float) -> str:
    return str(int(amount)) if float(amount).is_integer() else f"{amount:.2f}"


def _totals(charges: list[Charge], travellers: Travellers) -> str:
    """Cost per traveller, travellers paying the same grouped: "per person 120 CNY" or
    "User1 100 · User2, User3 120 CNY"; undeclared costs are counted and said."""
    unknown = sum(charge.amount is None and charge.priced for charge in charges)
    note = f" (+ {unknown} item(s) without a cost)" if unknown else ""
    sums = {
        name: sum(c.amount for c in charges if c.amount is not None and (not c.payers or name in c.payers))
        for name in travellers.names
    }
    if len(set(sums.values())) <= 1:
        total = next(iter(sums.values()), sum(c.amount or 0 for c in charges if not c.payers))
        return f"{PER_PERSON}: {_money(total)} CNY{note}"
    groups: dict[float, list[str]] = {}
    for name, total in sums.items():
        groups.setdefault(total, []).append(name)
    return (
        f"{PER_PERSON}: "
        + " · ".join(f"{', '.join(names)} {_money(total)}" for total, names in groups.items())
        + f" CNY{note}"
    )
