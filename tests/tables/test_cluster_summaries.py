"""What a process publishes of a table it handed over: nothing (its new owner's is newer)."""

from __future__ import annotations

from app.tables.cluster import Cluster


def test_a_handed_over_tables_pending_summary_is_not_published() -> None:
    cluster = Cluster("redis://127.0.0.1:1/0", "http://127.0.0.1:1")  # never connected here
    cluster.publish_summary("t1", {"id": "t1", "seats": []})
    cluster.publish_summary("t2", {"id": "t2", "seats": []})
    cluster.publish_summary("t3", None)
    cluster.drop_pending_summary("t1")
    cluster.drop_pending_summary("t3")
    assert set(cluster._dirty) == {"t2"}
    assert cluster._gone == set()
