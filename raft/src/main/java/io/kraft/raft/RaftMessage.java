package io.kraft.raft;

import java.util.List;

/**
 * The messages voters and observers exchange. Each names its sender and receiver (node ids) and the sender's
 * epoch; {@link #NO_LEADER} stands for "leader unknown" the way the wire form does.
 */
public sealed interface RaftMessage {

    int NO_LEADER = -1;

    int source();

    int destination();

    int epoch();

    /** Calls the method of {@code handler} for this message's type: dispatch without a chain of type tests. */
    void dispatchTo(Handler handler);

    /** One method per message type; {@link #dispatchTo} picks the one that fits. */
    interface Handler {
        void onVoteRequest(VoteRequest message);

        void onVoteResponse(VoteResponse message);

        void onBeginQuorumEpoch(BeginQuorumEpoch message);

        void onBeginQuorumEpochResponse(BeginQuorumEpochResponse message);

        void onEndQuorumEpoch(EndQuorumEpoch message);

        void onFetchRequest(FetchRequest message);

        void onFetchResponse(FetchResponse message);

        void onFetchSnapshotRequest(FetchSnapshotRequest message);

        void onFetchSnapshotResponse(FetchSnapshotResponse message);
    }

    /** Asks for a vote (or, with {@code preVote}, whether a vote would be granted) for {@code epoch}. */
    record VoteRequest(int source, int destination, int epoch, long lastEndOffset, int lastEpoch, boolean preVote,
                       java.util.UUID voterDirectoryId) implements RaftMessage {
        /** A request to a voter of a static set, whose directory is not known. */
        public VoteRequest(int source, int destination, int epoch, long lastEndOffset, int lastEpoch,
                           boolean preVote) {
            this(source, destination, epoch, lastEndOffset, lastEpoch, preVote, Voter.UNKNOWN_DIRECTORY);
        }

        public VoteRequest {
            java.util.Objects.requireNonNull(voterDirectoryId, "voterDirectoryId");
        }

        @Override
        public void dispatchTo(Handler handler) {
            handler.onVoteRequest(this);
        }
    }

    /** Answers a vote request; {@code candidateEpoch} echoes the epoch asked for so stale answers are dropped. */
    record VoteResponse(int source, int destination, int epoch, int leaderId, boolean granted, boolean preVote,
                        int candidateEpoch) implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onVoteResponse(this);
        }
    }

    /** A new leader announces its epoch so voters start fetching from it without waiting for a timeout. */
    record BeginQuorumEpoch(int source, int destination, int epoch) implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onBeginQuorumEpoch(this);
        }
    }

    /**
     * Answers a {@link BeginQuorumEpoch} with the receiver's epoch. A voter stuck in a newer epoch (its candidacy
     * failed unseen) frees itself this way: the leader adopts the newer epoch and a fresh election runs.
     */
    record BeginQuorumEpochResponse(int source, int destination, int epoch, int leaderId) implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onBeginQuorumEpochResponse(this);
        }
    }

    /** A resigning leader tells voters to elect at once; earlier successors in the list wait less. */
    record EndQuorumEpoch(int source, int destination, int epoch, List<Integer> preferredSuccessors)
            implements RaftMessage {
        public EndQuorumEpoch {
            preferredSuccessors = List.copyOf(preferredSuccessors);
        }

        @Override
        public void dispatchTo(Handler handler) {
            handler.onEndQuorumEpoch(this);
        }
    }

    /**
     * A follower or observer asks the leader for entries from {@code fetchOffset}; entries below it are durable
     * on the sender and the entry just before it has epoch {@code lastFetchedEpoch}.
     */
    record FetchRequest(int source, int destination, int epoch, long fetchOffset, int lastFetchedEpoch)
            implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onFetchRequest(this);
        }
    }

    /** Why a fetch was not served. */
    enum FetchError { NONE, FENCED_LEADER_EPOCH, NOT_LEADER, UNKNOWN_LEADER_EPOCH, SNAPSHOT_NOT_FOUND,
        POSITION_OUT_OF_RANGE }

    /**
     * The leader's answer: entries following the fetch position, a diverging epoch and its end offset telling
     * the fetcher where to truncate, or (when the position is below the leader's log start) the snapshot to fetch
     * first. {@code fetchOffset}/{@code lastFetchedEpoch} echo the request; {@code snapshotId} is null unless a
     * snapshot is needed.
     */
    record FetchResponse(int source, int destination, int epoch, int leaderId, FetchError error,
                         long fetchOffset, int lastFetchedEpoch, long highWatermark,
                         int divergingEpoch, long divergingEndOffset, List<LogEntry> entries, SnapshotId snapshotId)
            implements RaftMessage {
        public FetchResponse {
            entries = List.copyOf(entries);
        }

        /** A response without a snapshot: entries, a divergence or an error. */
        public FetchResponse(int source, int destination, int epoch, int leaderId, FetchError error,
                             long fetchOffset, int lastFetchedEpoch, long highWatermark,
                             int divergingEpoch, long divergingEndOffset, List<LogEntry> entries) {
            this(source, destination, epoch, leaderId, error, fetchOffset, lastFetchedEpoch, highWatermark,
                    divergingEpoch, divergingEndOffset, entries, null);
        }

        public boolean diverging() {
            return divergingEpoch >= 0;
        }

        public boolean snapshotNeeded() {
            return snapshotId != null;
        }

        @Override
        public void dispatchTo(Handler handler) {
            handler.onFetchResponse(this);
        }
    }

    /**
     * A member whose fetch position is below the leader's log start asks for up to {@code maxBytes} (at most
     * {@link RaftConfig#MAX_SNAPSHOT_FETCH_BYTES}) of a snapshot from {@code position}; the leader streams them back
     * in chunks.
     */
    record FetchSnapshotRequest(int source, int destination, int epoch, SnapshotId snapshotId, long position,
                                int maxBytes) implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onFetchSnapshotRequest(this);
        }
    }

    /**
     * One chunk of a snapshot's transfer form, at {@code position} of {@code sizeBytes}, with the CRC32C of
     * {@code data}; or an error with empty data. {@code lastOfResponse} marks the final chunk answering one request,
     * which tells a streaming transport to end the stream; it is not sent on the wire.
     */
    record FetchSnapshotResponse(int source, int destination, int epoch, int leaderId, FetchError error,
                                 SnapshotId snapshotId, long sizeBytes, long position, byte[] data, int crc32c,
                                 boolean lastOfResponse) implements RaftMessage {
        @Override
        public void dispatchTo(Handler handler) {
            handler.onFetchSnapshotResponse(this);
        }
    }
}
