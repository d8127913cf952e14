"""The POIs of one city: the places the tasks name, the city's real places, a base set, and
enough of every preference category (`MIN_PER_CATEGORY`) that each preference can be met or
avoided.

A named place that real data knows (`realdata.RealCity.attraction`) is that real record, under
the task's name (the real name if a task uses it) with every other name as an alias; one
that real data does not know is synthetic, placed where its name says (`RealCity.anchor`)
or else scattered by its category.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from sandbox.world.categories import Spec, attraction_spec, food_spec, hotel_spec, named_category
from sandbox.world.geography import CityInfo
from sandbox.world.hours import opening_hours
from sandbox.world.hubs import offset
from sandbox.world.model import Poi
from sandbox.world.names import Namer
from sandbox.world.prices import draw_fen, per_person_fen
from sandbox.world.realdata import RealCity, Row, real_city
from sandbox.world.realpois import real_attraction, real_hotel, real_restaurant
from sandbox.world.regional import clock_shift, hotel_level
from sandbox.world.seeding import rng
from sandbox.world.vocab import CityVocab

MIN_PER_CATEGORY = 4
BASE_ATTRACTIONS = {
    "公园": 3, "博物馆": 2, "寺庙": 2, "特色街区": 2, "广场": 1, "自然风光": 2, "文物古迹": 2, "人文景观": 2,
    "湖泊河流": 1, "4A景区": 2, "5A景区": 1, "游乐园": 1, "纪念馆": 1, "名山丘陵": 1,
}  # fmt: skip
BASE_FOOD = {
    "中餐": 3, "小吃快餐": 3, "面馆": 2, "西式快餐": 2, "火锅": 2, "烧烤": 2, "家常菜": 2, "川菜": 1,
    "自助餐": 1, "综合酒楼": 1, "大排档": 1,
}  # fmt: skip
HOTEL_CATEGORIES = (
    "旅馆", "客栈", "快捷酒店", "经济型", "民宿", "电竞酒店", "商务酒店", "舒适型", "公寓式酒店", "主题酒店",
    "高档型", "度假酒店", "豪华型",
)  # fmt: skip
HOTELS_PER_CATEGORY = 3
ANCHOR_KM = (0.2, 1.5)
ROADS = ("人民路", "解放路", "中山路", "建设路", "文化路", "滨江路", "新华路", "胜利路", "和平路", "长江路")
KIND_LETTER = {"attraction": "A", "restaurant": "R", "hotel": "H"}


def _spec(kind: str, category: str) -> Spec:
    if kind == "attraction":
        return attraction_spec(category)
    return food_spec(category) if kind == "restaurant" else hotel_spec(category)


def make_poi(
    info: CityInfo,
    kind: str,
    category: str,
    name: str,
    r: random.Random,
    *,
    named: bool = False,
    real: RealCity | None = None,
    at: tuple[float, float] | None = None,
) -> Poi:
    """One POI with facts drawn for its category (id assigned later by `assign_ids`); `at`
    puts it within `ANCHOR_KM` of a point instead of around the centre."""
    spec = _spec(kind, category)
    spread = spec.spread_km if kind == "attraction" else 7.0
    distance = 0.3 + min(spread, abs(r.gauss(0, spread / 2)))
    if at is not None:
        distance = r.uniform(*ANCHOR_KM)
    centre = at or (info.city.lon, info.city.lat)
    lon, lat = offset(centre[0], centre[1], distance, r.uniform(0, 2 * math.pi))
    room = draw_fen(spec.price, hotel_level(info) if kind == "hotel" else info.price_level, kind, r)
    pattern = "hotel" if kind == "hotel" else spec.hours
    visit = (0, 0) if kind == "hotel" else spec.visit
    return Poi(
        id="",
        name=name,
        city=info.city.name,
        kind=kind,
        category=category,
        lon=lon,
        lat=lat,
        price_fen=per_person_fen(kind, room),
        room_price_fen=room if kind == "hotel" else 0,
        min_visit_minutes=visit[0],
        suggested_visit_minutes=visit[1],
        rating=round(r.uniform(3.6, 4.9), 1),
        address=f"{info.city.name}{_district(real, lon, lat)}{r.choice(ROADS)}{r.randint(1, 399)}号",
        opening=opening_hours(pattern, r, off_season_ok=not named, shift=clock_shift(info)),
    )


def _district(real: RealCity | None, lon: float, lat: float) -> str:
    return (real.district_of(lon, lat) if real else None) or ""


def _targets(vocab: CityVocab) -> list[tuple[str, str, int]]:
    out = [("attraction", c, n) for c, n in BASE_ATTRACTIONS.items()]
    out += [("attraction", c, MIN_PER_CATEGORY) for c in sorted(vocab.attraction_categories)]
    out += [("restaurant", c, n) for c, n in BASE_FOOD.items()]
    out += [("restaurant", c, MIN_PER_CATEGORY) for c in sorted(vocab.food_items)]
    out += [("hotel", c, HOTELS_PER_CATEGORY) for c in HOTEL_CATEGORIES]
    out += [("hotel", c, MIN_PER_CATEGORY) for c in sorted(vocab.hotel_categories)]
    return out


def _generated_name(namer: Namer, kind: str, category: str, r: random.Random) -> str:
    suffixes = _spec(kind, category).suffixes
    if kind == "attraction":
        return namer.attraction(suffixes, category, r)
    return (
        namer.restaurant(suffixes, category, r)
        if kind == "restaurant"
        else namer.hotel(suffixes, category, r)
    )


def assign_ids(info: CityInfo, pois: Sequence[Poi]) -> tuple[Poi, ...]:
    """Ids "<adcode><A|R|H><nnnn>", numbered per kind in list order."""
    seen: Counter[str] = Counter()
    out = []
    for p in pois:
        seen[p.kind] += 1
        out.append(replace(p, id=f"{info.city.adcode}{KIND_LETTER[p.kind]}{seen[p.kind]:04d}"))
    return tuple(out)


def _named(info: CityInfo, real: RealCity, names: list[str], seed: int, taken: set[str]) -> list[Poi]:
    """The named places: real ones (one POI per real place, all names as aliases), then the rest."""
    city = info.city.name
    groups: dict[str, tuple[Row, list[str]]] = {}
    out = []
    for name in names:
        row = real.attraction(name)
        if row is None:
            r = rng(seed, "named", city, name)
            at = real.anchor(name)
            out.append(
                make_poi(info, "attraction", named_category(name), name, r, named=True, real=real, at=at)
            )
        else:
            groups.setdefault(row["name"], (row, []))[1].append(name)
    for real_name, (row, said) in sorted(groups.items()):
        own = real_name if real_name in said else said[0]
        aliases = tuple(sorted(n for n in {*said, real_name} - {own} if n in said or n not in taken))
        taken.update(aliases)
        r = rng(seed, "real", city, real_name)
        out.append(real_attraction(row, info, real, own, aliases=aliases, r=r))
    return out


def _real_rest(info: CityInfo, real: RealCity, seed: int, taken: set[str]) -> list[Poi]:
    """Every other real attraction, hotel and restaurant of the city whose name is still free."""
    city = info.city.name
    out = []
    for row in real.attractions:
        if row["source"] == "ChinaTravel" and row["name"] not in taken:
            out.append(
                real_attraction(
                    row, info, real, row["name"], aliases=(), r=rng(seed, "real", city, row["name"])
                )
            )
            taken.add(row["name"])
    for rows, make in ((real.hotels, real_hotel), (real.restaurants, real_restaurant)):
        for row in rows:
            if row["name"] not in taken:
                out.append(make(row, info, real, rng(seed, "real", city, row["name"])))
                taken.add(row["name"])
    return out


def city_pois(info: CityInfo, vocab: CityVocab, seed: int, existing: Sequence[Poi] = ()) -> tuple[Poi, ...]:
    """Existing POIs (kept first, as they are), then named attractions, the city's other real
    places, then fill-ups."""
    city = info.city.name
    out = list(existing)
    real = real_city(city)
    namer = Namer(
        info.short, vocab.words(), {p.name for p in existing} | {a for p in existing for a in p.aliases}
    )
    have = {p.name for p in existing if p.kind == "attraction"}
    names = sorted(vocab.visit_names - have)
    namer.taken.update(names)
    out += _named(info, real, names, seed, namer.taken)
    out += _real_rest(info, real, seed, namer.taken)
    counts: Counter[tuple[str, str]] = Counter((p.kind, p.category) for p in out)
    for kind, category, n in _targets(vocab):
        while counts[(kind, category)] < n:
            k = counts[(kind, category)]
            r = rng(seed, "poi", city, kind, category, k)
            name = _generated_name(namer, kind, category, r)
            out.append(make_poi(info, kind, category, name, r, real=real))
            counts[(kind, category)] += 1
    return assign_ids(info, out)
