package io.kraft.cli.transactions;

import java.util.Objects;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.common.TopicPartition;

/** A producer with an open transaction in a partition, as DescribeProducers reports it. */
public record OpenTransaction(TopicPartition partition, ProducerState producer) {
    public OpenTransaction {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(producer, "producer");
    }
}
