package io.kraft.broker.group.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.broker.group.consumer.TopicCatalog;
import io.kraft.broker.group.consumer.TopicInfo;
import io.kraft.storage.errors.Errors;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ShareGroupTest {
    private static final UUID ORDERS = new UUID(0, 1);
    private final Map<String, TopicInfo> topics = new HashMap<>(Map.of("orders", new TopicInfo(ORDERS, "orders", 2)));
    private final TopicCatalog catalog = new TopicCatalog() {
        @Override
        public TopicInfo byName(String name) {
            return topics.get(name);
        }

        @Override
        public Collection<TopicInfo> all() {
            return topics.values();
        }
    };
    private final ShareGroup group = new ShareGroup("g");

    private ShareGroup.Result beat(String member, int epoch, List<String> subscription) {
        return group.heartbeat(new ShareGroup.Heartbeat("g", member, epoch, null, subscription, "client", "/host"),
                catalog, 3, "generated");
    }

    private static Map<UUID, SortedSet<Integer>> partitions(UUID topic, Integer... ids) {
        return Map.of(topic, new TreeSet<>(List.of(ids)));
    }

    @Test
    void everyMemberGetsEveryPartitionOfItsTopics() {
        ShareGroup.Result a = beat("a", 0, List.of("orders"));
        ShareGroup.Result b = beat("b", 0, List.of("orders"));
        assertEquals(partitions(ORDERS, 0, 1), a.assignment());
        assertEquals(partitions(ORDERS, 0, 1), b.assignment());
        assertEquals(1, a.memberEpoch());
        assertEquals(2, b.memberEpoch());
        assertEquals("Stable", group.state());
    }

    @Test
    void anUnchangedHeartbeatKeepsTheEpochAndSendsNoAssignment() {
        beat("a", 0, List.of("orders"));
        ShareGroup.Result again = beat("a", 1, null);
        assertEquals(Errors.NONE.code(), again.errorCode());
        assertEquals(1, again.memberEpoch());
        assertNull(again.assignment());
    }

    @Test
    void aNewTopicOrPartitionReachesTheMemberAtItsNextHeartbeat() {
        beat("a", 0, List.of("orders", "later"));
        topics.put("later", new TopicInfo(new UUID(0, 2), "later", 1));
        ShareGroup.Result next = beat("a", 1, null);
        assertEquals(2, next.memberEpoch());
        assertEquals(2, next.assignment().size());
    }

    @Test
    void fencingAndUnknownMembers() {
        beat("a", 0, List.of("orders"));
        assertEquals(Errors.FENCED_MEMBER_EPOCH.code(), beat("a", 7, null).errorCode());
        assertEquals(Errors.UNKNOWN_MEMBER_ID.code(), beat("zz", 1, null).errorCode());
        assertEquals(Errors.INVALID_REQUEST.code(), beat("b", 0, null).errorCode());
        beat("b", 0, List.of("orders"));
        beat("c", 0, List.of("orders"));
        assertEquals(Errors.GROUP_MAX_SIZE_REACHED.code(), beat("d", 0, List.of("orders")).errorCode());
    }

    @Test
    void leavingAndExpiryRemoveTheMember() {
        beat("a", 0, List.of("orders"));
        beat("b", 0, List.of("orders"));
        ShareGroup.Result left = beat("a", ShareGroup.LEAVE_EPOCH, null);
        assertEquals(ShareGroup.LEAVE_EPOCH, left.memberEpoch());
        assertTrue(group.remove("b"));
        assertTrue(group.isEmpty());
        assertEquals("Empty", group.state());
        assertEquals(4, group.groupEpoch());
    }

    @Test
    void aMemberWithoutAnIdIsGivenOne() {
        assertEquals("generated", beat("", 0, List.of("orders")).memberId());
    }
}
