package io.kraft.raft.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.raft.LogEntry;
import io.kraft.raft.RaftMessage;
import io.kraft.raft.RaftMessage.FetchError;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Log entries cross the wire with their batch boundaries, and a type the receiver does not know is refused. */
class ProtoMessagesTest {

    @Test
    void aFetchResponseKeepsEveryEntryTypeAndSoTheBatchBoundaries() {
        List<LogEntry> entries = new ArrayList<>(List.of(LogEntry.leaderChange(4, 2, 1)));
        entries.addAll(LogEntry.batch(5, 2, List.of(new byte[] {1}, new byte[] {2}, new byte[] {3})));
        entries.add(LogEntry.data(8, 2, new byte[] {4}));
        RaftMessage.FetchResponse sent = new RaftMessage.FetchResponse(1, 2, 2, 1, FetchError.NONE, 4, 1, 3, -1, -1,
                entries);
        RaftMessage.FetchResponse received = ProtoMessages.fromProto(ProtoMessages.toProto(sent), 1, 2);
        assertEquals(entries, received.entries());
        assertEquals(List.of(LogEntry.EntryType.LEADER_CHANGE, LogEntry.EntryType.DATA_CONTINUED,
                LogEntry.EntryType.DATA_CONTINUED, LogEntry.EntryType.DATA, LogEntry.EntryType.DATA),
                received.entries().stream().map(LogEntry::type).toList());
    }

    @Test
    void anEntryOfAnUnknownTypeIsRefusedRatherThanReadAsData() {
        io.kraft.proto.raft.FetchResponse wire = io.kraft.proto.raft.FetchResponse.newBuilder().setEpoch(2)
                .setLeaderId(1).addEntries(io.kraft.proto.raft.LogEntry.newBuilder().setOffset(0).setEpoch(1)
                        .setTypeValue(7))
                .build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ProtoMessages.fromProto(wire, 1, 2));
        assertTrue(refused.getMessage().contains("unknown log entry type 7"), refused.getMessage());
    }
}
