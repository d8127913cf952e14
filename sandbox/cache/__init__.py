"""Tool-call cache keyed like the official sandbox, with memoised misses and FAISS retrieval."""

from sandbox.cache.embed import Embedder, HashEmbedder, OpenAIEmbedder
from sandbox.cache.keys import args_of_key, cache_key, key_of, params_json, query_text
from sandbox.cache.neighbours import Neighbour, NeighbourIndex
from sandbox.cache.report import cache_stats
from sandbox.cache.simulator import ChatSimulator, Simulator, SimulatorError
from sandbox.cache.store import CachedAnswer, CacheFileError, Provenance, ToolCache

__all__ = [
    "CacheFileError",
    "CachedAnswer",
    "ChatSimulator",
    "Embedder",
    "HashEmbedder",
    "Neighbour",
    "NeighbourIndex",
    "OpenAIEmbedder",
    "Provenance",
    "Simulator",
    "SimulatorError",
    "ToolCache",
    "args_of_key",
    "cache_key",
    "cache_stats",
    "key_of",
    "params_json",
    "query_text",
]
