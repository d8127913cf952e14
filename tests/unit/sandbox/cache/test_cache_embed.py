"""Embedders: the hashing embedder is deterministic and lexical; the OpenAI one talks to a server."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.cache.embed import Embedder, HashEmbedder, OpenAIEmbedder
from tests.fixtures.tools_fake_openai import EMBED_DIM, fake_openai, fake_vector


def test_single_character_hits_one_signed_bucket() -> None:
    code = zlib.crc32("北".encode())
    vector = HashEmbedder(dim=64).embed(["北"])[0]
    expected = np.zeros(64, dtype=np.float32)
    expected[code % 64] = 1.0 if (code >> 31) & 1 else -1.0
    assert np.array_equal(vector, expected)


def test_rows_are_unit_length_float32_and_empty_text_is_zero() -> None:
    out = HashEmbedder(dim=128).embed(["北京 火锅", "", "city: 杭州市 | keywords: 西湖"])
    assert out.dtype == np.float32 and out.shape == (3, 128)
    assert np.allclose(np.linalg.norm(out[[0, 2]], axis=1), 1.0)
    assert not out[1].any()


def test_identity_and_dimension_are_exposed() -> None:
    embedder = HashEmbedder(dim=256)
    assert isinstance(embedder, Embedder)
    assert embedder.dim == 256
    assert embedder.embedder_id == "hash-crc32-char1-3-d256-v1"
    assert HashEmbedder(dim=512).embedder_id != embedder.embedder_id


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="dim >= 8"):
        HashEmbedder(dim=4)


def test_lexically_close_arguments_are_closer() -> None:
    a, b, c = HashEmbedder().embed(
        ["city: 北京市 | keywords: 火锅", "city: 北京市 | keywords: 火锅店", "city: 三亚市 | keywords: 潜水"]
    )
    assert float(a @ b) > float(a @ c)


@settings(max_examples=50)
@given(st.lists(st.text(max_size=30), min_size=1, max_size=5))
def test_embedding_is_deterministic_across_instances(texts: list[str]) -> None:
    assert np.array_equal(HashEmbedder().embed(texts), HashEmbedder().embed(list(texts)))


def test_openai_embedder_reads_vectors_in_index_order() -> None:
    with fake_openai(lambda messages: "") as server:
        embedder = OpenAIEmbedder(server.base_url, "e5-passage")
        out = embedder.embed(["甲", "乙"])
        assert embedder.dim == EMBED_DIM
        assert embedder.embedder_id == f"openai:{server.base_url}:e5-passage"
    assert out.dtype == np.float32
    assert np.allclose(out, np.array([fake_vector("甲"), fake_vector("乙")], dtype=np.float32))
    assert server.requests[0]["input"] == ["甲", "乙"]
