package io.kraft.raft.grpc;

import com.google.protobuf.ByteString;
import io.kraft.proto.raft.BeginQuorumEpochRequest;
import io.kraft.proto.raft.BeginQuorumEpochResponse;
import io.kraft.proto.raft.DivergingEpoch;
import io.kraft.proto.raft.EndQuorumEpochRequest;
import io.kraft.proto.raft.FetchRequest;
import io.kraft.proto.raft.FetchResponse;
import io.kraft.proto.raft.FetchSnapshotRequest;
import io.kraft.proto.raft.FetchSnapshotResponse;
import io.kraft.proto.raft.SnapshotId;
import io.kraft.proto.raft.VoteRequest;
import io.kraft.proto.raft.VoteResponse;
import io.kraft.raft.LogEntry;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.RaftMessage.FetchError;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.List;

/** Converts between the core's {@link RaftMessage}s and the wire messages of raft.proto; error codes map here once. */
final class ProtoMessages {
    /** The wire code of success, which every answer without an error carries. */
    static final int NONE = Errors.NONE.code();

    private ProtoMessages() {
    }

    static int errorCode(FetchError error) {
        return (switch (error) {
            case NONE -> Errors.NONE;
            case NOT_LEADER -> Errors.NOT_LEADER_OR_FOLLOWER;
            case FENCED_LEADER_EPOCH -> Errors.FENCED_LEADER_EPOCH;
            case UNKNOWN_LEADER_EPOCH -> Errors.UNKNOWN_LEADER_EPOCH;
            case SNAPSHOT_NOT_FOUND -> Errors.SNAPSHOT_NOT_FOUND;
            case POSITION_OUT_OF_RANGE -> Errors.POSITION_OUT_OF_RANGE;
        }).code();
    }

    static FetchError fetchError(int code) {
        Errors error = code == (short) code ? Errors.forCode((short) code) : Errors.UNKNOWN_SERVER_ERROR;
        return switch (error) {
            case NONE -> FetchError.NONE;
            case NOT_LEADER_OR_FOLLOWER -> FetchError.NOT_LEADER;
            case FENCED_LEADER_EPOCH -> FetchError.FENCED_LEADER_EPOCH;
            case UNKNOWN_LEADER_EPOCH -> FetchError.UNKNOWN_LEADER_EPOCH;
            case SNAPSHOT_NOT_FOUND -> FetchError.SNAPSHOT_NOT_FOUND;
            case POSITION_OUT_OF_RANGE -> FetchError.POSITION_OUT_OF_RANGE;
            default -> throw new IllegalArgumentException("fetch response carries unexpected error code " + code);
        };
    }

    static VoteRequest toProto(String clusterId, RaftMessage.VoteRequest m) {
        return VoteRequest.newBuilder().setClusterId(clusterId).setCandidateId(m.source()).setVoterId(m.destination())
                .setCandidateEpoch(m.epoch()).setLastOffset(m.lastEndOffset()).setLastOffsetEpoch(m.lastEpoch())
                .setPreVote(m.preVote()).setVoterDirectoryId(directoryIdToProto(m.voterDirectoryId())).build();
    }

    static RaftMessage.VoteRequest fromProto(VoteRequest p) {
        return new RaftMessage.VoteRequest(p.getCandidateId(), p.getVoterId(), p.getCandidateEpoch(),
                p.getLastOffset(), p.getLastOffsetEpoch(), p.getPreVote(),
                directoryIdFromProto(p.getVoterDirectoryId()));
    }

    static com.google.protobuf.ByteString directoryIdToProto(java.util.UUID id) {
        return com.google.protobuf.ByteString.copyFrom(io.kraft.raft.Voter.directoryBytes(id));
    }

    static java.util.UUID directoryIdFromProto(com.google.protobuf.ByteString bytes) {
        return io.kraft.raft.Voter.directoryFromBytes(bytes.toByteArray());
    }

    static VoteResponse toProto(RaftMessage.VoteResponse m) {
        return VoteResponse.newBuilder().setErrorCode(NONE).setVoterId(m.source()).setEpoch(m.epoch())
                .setLeaderId(m.leaderId()).setVoteGranted(m.granted()).setPreVote(m.preVote())
                .setCandidateEpoch(m.candidateEpoch()).build();
    }

    static RaftMessage.VoteResponse fromProto(VoteResponse p, int destination) {
        return new RaftMessage.VoteResponse(p.getVoterId(), destination, p.getEpoch(), p.getLeaderId(),
                p.getVoteGranted(), p.getPreVote(), p.getCandidateEpoch());
    }

    static BeginQuorumEpochRequest toProto(String clusterId, RaftMessage.BeginQuorumEpoch m) {
        return BeginQuorumEpochRequest.newBuilder().setClusterId(clusterId).setLeaderId(m.source())
                .setVoterId(m.destination()).setLeaderEpoch(m.epoch()).build();
    }

    static RaftMessage.BeginQuorumEpoch fromProto(BeginQuorumEpochRequest p) {
        return new RaftMessage.BeginQuorumEpoch(p.getLeaderId(), p.getVoterId(), p.getLeaderEpoch());
    }

    static BeginQuorumEpochResponse toProto(RaftMessage.BeginQuorumEpochResponse m) {
        return BeginQuorumEpochResponse.newBuilder().setErrorCode(NONE).setVoterId(m.source()).setEpoch(m.epoch())
                .setLeaderId(m.leaderId()).build();
    }

    static RaftMessage.BeginQuorumEpochResponse fromProto(BeginQuorumEpochResponse p, int destination) {
        return new RaftMessage.BeginQuorumEpochResponse(p.getVoterId(), destination, p.getEpoch(), p.getLeaderId());
    }

    static EndQuorumEpochRequest toProto(String clusterId, RaftMessage.EndQuorumEpoch m) {
        return EndQuorumEpochRequest.newBuilder().setClusterId(clusterId).setLeaderId(m.source())
                .setVoterId(m.destination()).setLeaderEpoch(m.epoch())
                .addAllPreferredSuccessors(m.preferredSuccessors()).build();
    }

    static RaftMessage.EndQuorumEpoch fromProto(EndQuorumEpochRequest p) {
        return new RaftMessage.EndQuorumEpoch(p.getLeaderId(), p.getVoterId(), p.getLeaderEpoch(),
                p.getPreferredSuccessorsList());
    }

    static FetchRequest toProto(String clusterId, RaftMessage.FetchRequest m) {
        return FetchRequest.newBuilder().setClusterId(clusterId).setReplicaId(m.source()).setLeaderId(m.destination())
                .setEpoch(m.epoch()).setFetchOffset(m.fetchOffset()).setLastFetchedEpoch(m.lastFetchedEpoch()).build();
    }

    static RaftMessage.FetchRequest fromProto(FetchRequest p) {
        return new RaftMessage.FetchRequest(p.getReplicaId(), p.getLeaderId(), p.getEpoch(), p.getFetchOffset(),
                p.getLastFetchedEpoch());
    }

    static FetchResponse toProto(RaftMessage.FetchResponse m) {
        FetchResponse.Builder builder = FetchResponse.newBuilder().setErrorCode(errorCode(m.error()))
                .setEpoch(m.epoch()).setLeaderId(m.leaderId()).setHighWatermark(m.highWatermark())
                .setFetchOffset(m.fetchOffset()).setLastFetchedEpoch(m.lastFetchedEpoch());
        if (m.snapshotNeeded()) {
            builder.setSnapshotId(toProto(m.snapshotId()));
        }
        if (m.diverging()) {
            builder.setDivergingEpoch(DivergingEpoch.newBuilder().setEpoch(m.divergingEpoch())
                    .setEndOffset(m.divergingEndOffset()));
        }
        for (LogEntry entry : m.entries()) {
            builder.addEntries(io.kraft.proto.raft.LogEntry.newBuilder().setOffset(entry.offset())
                    .setEpoch(entry.epoch()).setType(toProto(entry.type()))
                    .setPayload(ByteString.copyFrom(entry.payload())));
        }
        return builder.build();
    }

    static RaftMessage.FetchResponse fromProto(FetchResponse p, int source, int destination) {
        List<LogEntry> entries = new ArrayList<>(p.getEntriesCount());
        for (io.kraft.proto.raft.LogEntry e : p.getEntriesList()) {
            entries.add(new LogEntry(e.getOffset(), e.getEpoch(), fromProto(e.getType(), e.getTypeValue()),
                    e.getPayload().toByteArray()));
        }
        int divergingEpoch = p.hasDivergingEpoch() ? p.getDivergingEpoch().getEpoch() : -1;
        long divergingEndOffset = p.hasDivergingEpoch() ? p.getDivergingEpoch().getEndOffset() : -1;
        return new RaftMessage.FetchResponse(source, destination, p.getEpoch(), p.getLeaderId(),
                fetchError(p.getErrorCode()), p.getFetchOffset(), p.getLastFetchedEpoch(), p.getHighWatermark(),
                divergingEpoch, divergingEndOffset, entries, p.hasSnapshotId() ? fromProto(p.getSnapshotId()) : null);
    }

    static io.kraft.proto.raft.LogEntry.EntryType toProto(LogEntry.EntryType type) {
        return switch (type) {
            case DATA -> io.kraft.proto.raft.LogEntry.EntryType.DATA;
            case LEADER_CHANGE -> io.kraft.proto.raft.LogEntry.EntryType.LEADER_CHANGE;
            case DATA_CONTINUED -> io.kraft.proto.raft.LogEntry.EntryType.DATA_CONTINUED;
            case VOTERS -> io.kraft.proto.raft.LogEntry.EntryType.VOTERS;
        };
    }

    static LogEntry.EntryType fromProto(io.kraft.proto.raft.LogEntry.EntryType type, int wireValue) {
        return switch (type) {
            case DATA -> LogEntry.EntryType.DATA;
            case LEADER_CHANGE -> LogEntry.EntryType.LEADER_CHANGE;
            case DATA_CONTINUED -> LogEntry.EntryType.DATA_CONTINUED;
            case VOTERS -> LogEntry.EntryType.VOTERS;
            // Guessing would be worse: a batch boundary read as data could commit half a batch.
            default -> throw new IllegalArgumentException("unknown log entry type " + wireValue);
        };
    }

    static SnapshotId toProto(io.kraft.raft.SnapshotId id) {
        return SnapshotId.newBuilder().setEndOffset(id.endOffset()).setEpoch(id.epoch()).build();
    }

    static io.kraft.raft.SnapshotId fromProto(SnapshotId p) {
        return new io.kraft.raft.SnapshotId(p.getEndOffset(), p.getEpoch());
    }

    static FetchSnapshotRequest toProto(String clusterId, RaftMessage.FetchSnapshotRequest m) {
        return FetchSnapshotRequest.newBuilder().setClusterId(clusterId).setReplicaId(m.source())
                .setLeaderId(m.destination()).setEpoch(m.epoch()).setSnapshotId(toProto(m.snapshotId()))
                .setPosition(m.position()).setMaxBytes(m.maxBytes()).build();
    }

    static RaftMessage.FetchSnapshotRequest fromProto(FetchSnapshotRequest p) {
        return new RaftMessage.FetchSnapshotRequest(p.getReplicaId(), p.getLeaderId(), p.getEpoch(),
                fromProto(p.getSnapshotId()), p.getPosition(), p.getMaxBytes());
    }

    static FetchSnapshotResponse toProto(RaftMessage.FetchSnapshotResponse m) {
        return FetchSnapshotResponse.newBuilder().setErrorCode(errorCode(m.error())).setEpoch(m.epoch())
                .setLeaderId(m.leaderId()).setSnapshotId(toProto(m.snapshotId())).setSizeBytes(m.sizeBytes())
                .setPosition(m.position()).setData(ByteString.copyFrom(m.data())).setCrc32C(m.crc32c()).build();
    }

    static RaftMessage.FetchSnapshotResponse fromProto(FetchSnapshotResponse p, int source, int destination) {
        return new RaftMessage.FetchSnapshotResponse(source, destination, p.getEpoch(), p.getLeaderId(),
                fetchError(p.getErrorCode()), fromProto(p.getSnapshotId()), p.getSizeBytes(), p.getPosition(),
                p.getData().toByteArray(), p.getCrc32C(), false);
    }
}
