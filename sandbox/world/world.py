"""`World`: the read-only facts of a generated (or imported) world.

Cities, their hubs (stations, airports, the centre) and POIs; timetables and transfers are
computed on demand from coordinates and the seed. Satisfies `verifier.world_facts.WorldFacts` by
shape. City arguments accept the key ("海口市") or the short name ("海口").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from sandbox.world import holiday_prices, storage, timetables, transfers
from sandbox.world.errors import WorldError
from sandbox.world.geography import haversine_km, short_index, short_name
from sandbox.world.model import City, Hub, IntercityOption, Poi, Transfer, Window
from sandbox.world.opening import windows_on

Loader = Callable[[str], tuple[Poi, ...]]


class World:
    """A world: immutable facts plus lazily loaded per-city POI lists."""

    def __init__(
        self,
        cities: Iterable[City],
        hubs: Iterable[Hub],
        pois: Mapping[str, Sequence[Poi]],
        *,
        seed: int,
        source_hash: str,
        loader: Loader | None = None,
    ) -> None:
        self._cities = {c.name: c for c in sorted(cities, key=lambda c: (c.adcode, c.name))}
        self._by_adcode = {c.adcode: c.name for c in self._cities.values()}
        self._shorts = short_index(list(self._cities), {n: short_name(n) for n in self._cities})
        self._hubs: dict[str, tuple[Hub, ...]] = {n: () for n in self._cities}
        for h in hubs:
            self._hubs[h.city] += (h,)
        self._pois: dict[str, tuple[Poi, ...]] = {}
        self._by_name: dict[str, dict[str, Poi]] = {}
        for name, plist in pois.items():
            self._install(name, tuple(plist))
        self._loader = loader
        self._timetables: dict[tuple[str, str, dt.date], tuple[IntercityOption, ...]] = {}
        self.seed = seed
        self.source_hash = source_hash

    def _install(self, city: str, plist: tuple[Poi, ...]) -> None:
        self._pois[city] = plist
        names = {p.name: p for p in plist}
        for p in plist:
            for alias in p.aliases:
                others = tuple(n for n in (p.name, *p.aliases) if n != alias)
                names.setdefault(alias, replace(p, name=alias, aliases=others))
        self._by_name[city] = names

    def _city_pois(self, city: str) -> tuple[Poi, ...]:
        if city not in self._pois:
            self._install(city, self._loader(city) if self._loader else ())
        return self._pois[city]

    # cities and places -------------------------------------------------------------------
    def city(self, name: str) -> str | None:
        """The world's key for a city name ("海口" or "海口市" → "海口市"), or None."""
        if name in self._cities:
            return name
        if name + "市" in self._cities:
            return name + "市"
        return self._shorts.get(name)

    @property
    def cities(self) -> tuple[str, ...]:
        """Every city key, by adcode."""
        return tuple(self._cities)

    def city_record(self, name: str) -> City | None:
        """The `City` record for a city name, or None."""
        key = self.city(name)
        return self._cities[key] if key else None

    def hubs(self, city: str) -> tuple[Hub, ...]:
        """Stations, airports and the centre of a city (empty for an unknown city)."""
        key = self.city(city)
        return self._hubs[key] if key else ()

    def poi(self, city: str, name: str) -> Poi | None:
        """The place with exactly this name in this city (the last one if repeated), or None.

        An alias answers with the place under that name (same id, position and facts), its
        other names (the stored one first) as `aliases`."""
        key = self.city(city)
        if key is None:
            return None
        self._city_pois(key)
        return self._by_name[key].get(name)

    def pois(self, city: str, kind: str | None = None, category: str | None = None) -> tuple[Poi, ...]:
        """The POIs of a city in stored order (each place once, under its own name), optionally
        of one kind and/or category."""
        key = self.city(city)
        plist = self._city_pois(key) if key else ()
        return tuple(
            p
            for p in plist
            if (kind is None or p.kind == kind) and (category is None or p.category == category)
        )

    def poi_by_id(self, poi_id: str) -> Poi | None:
        """The POI with this id (ids start with the city's 6-digit adcode), or None."""
        city = self._by_adcode.get(poi_id[:6])
        if city is None:
            return None
        return next((p for p in self._city_pois(city) if p.id == poi_id), None)

    def place(self, city: str, name: str) -> tuple[float, float] | None:
        """(lon, lat) of a POI or hub of the city; the city's own name is its centre."""
        key = self.city(city)
        if key is None:
            return None
        p = self.poi(key, name)
        if p is not None:
            return (p.lon, p.lat)
        hub = next((h for h in self._hubs[key] if h.name == name), None)
        return (hub.lon, hub.lat) if hub else None

    def search(
        self,
        city: str,
        keyword: str,
        *,
        near: tuple[float, float] | None = None,
        radius_km: float | None = None,
        kind: str | None = None,
    ) -> list[Poi]:
        """POIs whose name, an alias or category contains `keyword` ("" matches all).

        With `near`, only those within `radius_km` (if given) of it, nearest first; without,
        exact name first, then name matches, then category matches, best rated first.
        """
        found = [
            p
            for p in self.pois(city, kind)
            if keyword in p.name or keyword in p.category or any(keyword in a for a in p.aliases)
        ]
        if near is not None:
            dist = {p.id: haversine_km(near[0], near[1], p.lon, p.lat) for p in found}
            if radius_km is not None:
                found = [p for p in found if dist[p.id] <= radius_km]
            return sorted(found, key=lambda p: (dist[p.id], p.id))
        return sorted(found, key=lambda p: (p.name != keyword, keyword not in p.name, -p.rating, p.id))

    # facts the verifier asks --------------------------------------------------------------
    def opening_windows(self, city: str, name: str, date: dt.date) -> tuple[Window, ...] | None:
        """Windows of a place on a date: None = open all day (also hubs and unknown places),
        () = closed that day. See `sandbox.world.opening` for the semantics."""
        p = self.poi(city, name)
        return windows_on(p.opening, date) if p else None

    def price_fen_on(self, city: str, name: str, date: dt.date) -> int | None:
        """Per-person price of a place on a date — a hotel's night starting that date, an
        attraction's ticket for a visit that date: the holiday price where one applies (see
        `sandbox.world.holiday_prices`), else `price_fen`; None for an unknown place."""
        p = self.poi(city, name)
        return holiday_prices.price_on(p, date) if p else None

    def intercity_options(self, from_city: str, to_city: str, date: dt.date) -> list[IntercityOption]:
        """Every departure between two cities on a date, all modes, sorted by departure."""
        a, b = self.city(from_city), self.city(to_city)
        if a is None or b is None:
            return []
        key = (a, b, date)
        if key not in self._timetables:
            route = timetables.Route(
                self.seed, self._cities[a], self._cities[b], self._hubs[a], self._hubs[b], date
            )
            opts = timetables.options(route)
            self._timetables[key] = tuple(opts)
        return list(self._timetables[key])

    def transfer(self, city: str, origin: str, destination: str, mode: str) -> Transfer | None:
        """Door-to-door travel between two named places of a city by an intracity mode
        (公共交通, 骑车, 步行, 自驾, 打车); None when a place or the mode is unknown."""
        a, b = self.place(city, origin), self.place(city, destination)
        if a is None or b is None:
            return None
        return transfers.transfer(a, b, mode)

    # persistence ---------------------------------------------------------------------------
    def save(self, directory: str | Path) -> None:
        """Write the world (format in `sandbox.world.storage`); same world → same bytes."""
        root = Path(directory)
        entries = []
        for c in self._cities.values():
            plist = self._city_pois(c.name)
            entry = storage.city_to_json(c) | {"file": None, "sha256": None, "pois": len(plist)}
            if plist:
                data = storage.city_payload(c, plist)
                storage.write_atomic(root / storage.city_file(c), data)
                entry |= {"file": storage.city_file(c), "sha256": storage.sha256(data)}
            entries.append(entry)
        manifest = {
            "format": storage.FORMAT,
            "schema_version": storage.SCHEMA_VERSION,
            "seed": self.seed,
            "source_hash": self.source_hash,
            "cities": entries,
            "hubs": [storage.hub_to_json(h) for c in self._cities for h in self._hubs[c]],
        }
        storage.write_atomic(root / "manifest.json", storage.dumps(manifest, pretty=True))

    @classmethod
    def load(cls, directory: str | Path, cities: Iterable[str] | None = None) -> World:
        """Read a saved world. With `cities`, only those POI files are read now; the others
        are read on first use. Raises `WorldError` for a missing, foreign or corrupt world."""
        root = Path(directory)
        manifest = storage.read_manifest(root)
        try:
            entries = {e["name"]: e for e in manifest["cities"]}
            city_list = [
                City(e["name"], e["province"], e["adcode"], e["lon"], e["lat"], e["hsr"])
                for e in entries.values()
            ]
            hubs = [
                Hub(h["name"], h["city"], h["kind"], h["lon"], h["lat"], h["iata"]) for h in manifest["hubs"]
            ]
            seed, source_hash = int(manifest["seed"]), str(manifest["source_hash"])
            for e in entries.values():
                if not isinstance(e["file"], str | None) or not isinstance(e["sha256"], str | None):
                    raise TypeError(f"city {e['name']!r}: 'file' and 'sha256' must be strings or null")
            for h in hubs:
                if h.city not in entries:
                    raise KeyError(f"hub {h.name!r} names unknown city {h.city!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise WorldError(str(root / "manifest.json"), f"malformed manifest ({exc!r})") from exc

        def loader(name: str) -> tuple[Poi, ...]:
            return storage.read_city(root, entries[name])

        world = cls(city_list, hubs, {}, seed=seed, source_hash=source_hash, loader=loader)
        wanted = list(entries) if cities is None else cities
        for name in wanted:
            key = world.city(name)
            if key is None:
                raise WorldError("cities", f"{name!r} is not a city of this world")
            world._city_pois(key)
        return world
