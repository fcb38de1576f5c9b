package io.kraft.broker.metrics;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's {@code kafka.server:type=BrokerTopicMetrics}: messages and bytes in, bytes out to consumers and to
 * followers, produce and fetch requests and their failures, for all topics and per topic (a topic's meters exist
 * from its first produce or fetch here until it is deleted).
 */
public final class BrokerTopicMetrics {
    private static final String DOMAIN = "kafka.server";
    private static final String TYPE = "BrokerTopicMetrics";

    private final KafkaMetrics metrics;
    private final TopicMeters allTopics;
    private final Meter replicationBytesOut;
    private final Map<String, TopicMeters> byTopic = new ConcurrentHashMap<>();

    public BrokerTopicMetrics(KafkaMetrics metrics) {
        this.metrics = metrics;
        this.allTopics = new TopicMeters(metrics, null);
        this.replicationBytesOut = metrics.meter(MetricName.of(DOMAIN, TYPE, "ReplicationBytesOutPerSec"), "bytes",
                "Bytes sent to followers");
    }

    /** A client's records appended to {@code topic}'s leader here. */
    public void produced(String topic, long messages, long bytes) {
        TopicMeters topicMeters = topic(topic);
        allTopics.messagesIn.mark(messages);
        topicMeters.messagesIn.mark(messages);
        allTopics.bytesIn.mark(bytes);
        topicMeters.bytesIn.mark(bytes);
    }

    /** One partition of a produce request, and whether it failed. */
    public void produceRequest(String topic, boolean failed) {
        TopicMeters topicMeters = topic(topic);
        allTopics.produceRequests.mark();
        topicMeters.produceRequests.mark();
        if (failed) {
            allTopics.failedProduceRequests.mark();
            topicMeters.failedProduceRequests.mark();
        }
    }

    /** One partition of a consumer's fetch, the bytes it was sent, and whether it failed. */
    public void fetched(String topic, long bytes, boolean failed) {
        TopicMeters topicMeters = topic(topic);
        allTopics.fetchRequests.mark();
        topicMeters.fetchRequests.mark();
        allTopics.bytesOut.mark(bytes);
        topicMeters.bytesOut.mark(bytes);
        if (failed) {
            allTopics.failedFetchRequests.mark();
            topicMeters.failedFetchRequests.mark();
        }
    }

    /** Bytes sent to a follower. */
    public void replicatedOut(long bytes) {
        replicationBytesOut.mark(bytes);
    }

    /** Forgets a deleted topic's meters. */
    public void removeTopic(String topic) {
        TopicMeters removed = byTopic.remove(topic);
        if (removed != null) {
            removed.remove(metrics);
        }
    }

    private TopicMeters topic(String topic) {
        TopicMeters existing = byTopic.get(topic);
        return existing != null ? existing : byTopic.computeIfAbsent(topic, t -> new TopicMeters(metrics, t));
    }

    /** The meters of one topic, or of all when the topic is null. */
    private static final class TopicMeters {
        final Meter messagesIn;
        final Meter bytesIn;
        final Meter bytesOut;
        final Meter produceRequests;
        final Meter fetchRequests;
        final Meter failedProduceRequests;
        final Meter failedFetchRequests;

        TopicMeters(KafkaMetrics metrics, String topic) {
            messagesIn = metrics.meter(name("MessagesInPerSec", topic), "messages", "Records appended by producers");
            bytesIn = metrics.meter(name("BytesInPerSec", topic), "bytes", "Bytes appended by producers");
            bytesOut = metrics.meter(name("BytesOutPerSec", topic), "bytes", "Bytes sent to consumers");
            produceRequests = metrics.meter(name("TotalProduceRequestsPerSec", topic), "requests",
                    "Partitions of produce requests");
            fetchRequests = metrics.meter(name("TotalFetchRequestsPerSec", topic), "requests",
                    "Partitions of consumer fetch requests");
            failedProduceRequests = metrics.meter(name("FailedProduceRequestsPerSec", topic), "requests",
                    "Partitions of produce requests answered with an error");
            failedFetchRequests = metrics.meter(name("FailedFetchRequestsPerSec", topic), "requests",
                    "Partitions of consumer fetch requests answered with an error");
        }

        void remove(KafkaMetrics metrics) {
            for (Meter meter : new Meter[]{messagesIn, bytesIn, bytesOut, produceRequests, fetchRequests,
                    failedProduceRequests, failedFetchRequests}) {
                metrics.remove(meter.name());
            }
        }

        private static MetricName name(String name, String topic) {
            MetricName all = MetricName.of(DOMAIN, TYPE, name);
            return topic == null ? all : all.tagged("topic", topic);
        }
    }
}
