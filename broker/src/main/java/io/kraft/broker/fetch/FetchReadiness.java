package io.kraft.broker.fetch;

/** What a read of one partition would answer a waiting fetch now, known without reading the log. */
public enum FetchReadiness {
    /** Nothing past the fetch offset is readable yet. */
    NOTHING_NEW,
    /** At least one batch past the fetch offset is readable. */
    DATA,
    /** The read would fail or tell a follower to truncate: the fetch must answer now. */
    ANSWER_NOW
}
