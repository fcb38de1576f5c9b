package io.kraft.broker.fetch;

import io.kraft.broker.fetch.FetchPartitionRequest;
import io.kraft.broker.fetch.PartitionRead;
import io.kraft.storage.errors.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one Fetch request means under KIP-227: a session error, or the partitions to read (the request's for a
 * full fetch, the whole session's for an incremental one), the session id to answer with, and which of the
 * read partitions the response carries (an incremental response leaves out partitions with nothing new).
 */
public final class FetchContext {
    private final Errors error;
    private final String errorMessage;
    private final FetchSession session;
    private final boolean incremental;
    private final LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> toRead;

    private FetchContext(Errors error, String errorMessage, FetchSession session, boolean incremental,
                         LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> toRead) {
        this.error = error;
        this.errorMessage = errorMessage;
        this.session = session;
        this.incremental = incremental;
        this.toRead = toRead;
    }

    static FetchContext failed(Errors error, String message) {
        return new FetchContext(error, message, null, false, new LinkedHashMap<>());
    }

    /** A full fetch; {@code session} is the session it created, or null (sessionless, or no slot free). */
    static FetchContext full(LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> requested, FetchSession session) {
        return new FetchContext(Errors.NONE, null, session, false, requested);
    }

    static FetchContext incremental(FetchSession session, LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> all) {
        return new FetchContext(Errors.NONE, null, session, true, all);
    }

    /** The session error (FETCH_SESSION_ID_NOT_FOUND, INVALID_FETCH_SESSION_EPOCH, ...), answered with no partitions. */
    public Optional<Errors> error() {
        return error == Errors.NONE ? Optional.empty() : Optional.of(error);
    }

    public String errorMessage() {
        return errorMessage;
    }

    /** The session id the response carries: the session's, or 0 without one. */
    public int responseSessionId() {
        return session == null ? FetchSessionCache.INVALID_SESSION_ID : session.id();
    }

    public boolean isIncremental() {
        return incremental;
    }

    public LinkedHashMap<FetchPartitionKey, FetchPartitionRequest> partitionsToRead() {
        return toRead;
    }

    /**
     * The reads the response carries, in order: all of them for a full fetch, the changed ones for an
     * incremental fetch. Updates what the session remembers having told the client.
     */
    public LinkedHashMap<FetchPartitionKey, PartitionRead> select(LinkedHashMap<FetchPartitionKey, PartitionRead> reads) {
        if (session == null) {
            return reads;
        }
        LinkedHashMap<FetchPartitionKey, PartitionRead> carried = new LinkedHashMap<>();
        for (Map.Entry<FetchPartitionKey, PartitionRead> entry : reads.entrySet()) {
            boolean changed = session.absorb(entry.getKey(), entry.getValue());
            if (!incremental || changed) {
                carried.put(entry.getKey(), entry.getValue());
            }
        }
        return carried;
    }
}
