"""The sandbox world: model, builder, storage and official-format interoperability."""

from sandbox.world.errors import WorldError
from sandbox.world.model import City, Hub, IntercityOption, OpeningHours, OpeningRule, Poi, Transfer, Window
from sandbox.world.world import World

__all__ = [
    "City",
    "Hub",
    "IntercityOption",
    "OpeningHours",
    "OpeningRule",
    "Poi",
    "Transfer",
    "Window",
    "World",
    "WorldError",
]
