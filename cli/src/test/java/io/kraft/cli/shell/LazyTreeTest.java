package io.kraft.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.Uuids;
import io.kraft.metadata.image.MetadataDelta;
import io.kraft.metadata.image.MetadataImage;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.proto.metadata.PartitionRecord;
import io.kraft.proto.metadata.TopicRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The shell makes only the nodes a command's path goes through: over 2,000 topics x 10 partitions, listing the
 * topics makes no topic directory, and printing one partition's data makes that topic's directory and that partition
 * (counted, not timed), so a 1,000,000-partition snapshot answers without a tree of every node.
 */
class LazyTreeTest {
    private static final int TOPICS = 2_000;
    private static final int PARTITIONS = 10;

    @Test
    void commandsMakeOnlyTheNodesOnTheirPath() {
        MetadataTree tree = MetadataTree.of(image(), Map.of());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        ShellSession session = new ShellSession(tree, new PrintWriter(out, true), new PrintWriter(err, true));

        assertEquals(ShellSession.Outcome.OK, session.execute("ls /topics"), err.toString());
        assertEquals(TOPICS, out.toString().lines().count());
        assertTrue(out.toString().startsWith("topic-0" + System.lineSeparator() + "topic-1" + System.lineSeparator()));
        assertEquals(0, tree.nodesMade(), "ls /topics made topic directories");

        out.getBuffer().setLength(0);
        assertEquals(ShellSession.Outcome.OK, session.execute("cat /topics/topic-1234/7/data"), err.toString());
        assertTrue(out.toString().contains("\"leader\": 1"), out.toString());
        assertEquals(2, tree.nodesMade(), "cat made more than the topic and its partition");

        out.getBuffer().setLength(0);
        assertEquals(ShellSession.Outcome.OK, session.execute("ls /topics/topic-99"), err.toString());
        assertEquals(PARTITIONS + 2, out.toString().lines().count());
        assertEquals(3, tree.nodesMade(), "listing a topic made its partitions");
    }

    private static MetadataImage image() {
        List<MetadataRecord> records = new ArrayList<>();
        for (int t = 0; t < TOPICS; t++) {
            UUID id = new UUID(t + 1, 99);
            records.add(MetadataRecords.of(TopicRecord.newBuilder().setName("topic-" + t)
                    .setTopicId(Uuids.toProto(id)).build()));
            for (int p = 0; p < PARTITIONS; p++) {
                records.add(MetadataRecords.of(PartitionRecord.newBuilder().setTopicId(Uuids.toProto(id))
                        .setPartitionId(p).addReplicas(1).addReplicas(2).addIsr(1).addIsr(2).setLeader(1).build()));
            }
        }
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replayBatch(records, 0, 1);
        return delta.apply();
    }
}
