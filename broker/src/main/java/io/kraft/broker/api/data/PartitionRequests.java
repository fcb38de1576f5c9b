package io.kraft.broker.api.data;

import io.kraft.broker.api.TopicPartitions;
import io.kraft.metadata.authorizer.AclOperation;
import io.kraft.metadata.authorizer.ResourceType;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;

/**
 * The per-partition loop of requests shaped {@code topics[] -> partitions[]} whose response mirrors them
 * (ListOffsets, OffsetForLeaderEpoch, DeleteRecords): each partition is resolved on its own, and a failure becomes
 * that partition's error code without touching the others. The generated classes of each API differ, so the
 * API describes its shape once with accessors of its own classes.
 *
 * @param api            the API's name, for the log line of an unexpected failure
 * @param topicName      a request topic's name
 * @param partitions     a request topic's partitions
 * @param partitionIndex a request partition's index
 * @param newTopic       a response topic with this name and these partitions
 * @param newPartition   a response partition with this index and every other field at its default
 * @param <T>            the request's topic class
 * @param <P>            the request's partition class
 * @param <U>            the response's topic class
 * @param <R>            the response's partition class
 */
record PartitionRequests<T, P, U, R>(String api, Function<T, String> topicName, Function<T, List<P>> partitions,
                                     ToIntFunction<P> partitionIndex, BiFunction<String, List<R>, U> newTopic,
                                     IntFunction<R> newPartition) {
    /** Answers one partition: writes its fields (but not the error code, NONE by default) into {@code out}, or throws. */
    interface Answer<P, R> {
        void write(TopicPartition tp, P request, R out);
    }

    /** Writes a failed partition's fields: the error code and the API's "unknown" values. */
    interface Failure<R> {
        void write(R out, short errorCode);
    }

    /**
     * One response topic per requested topic, each with one answer per requested partition, in request order; the
     * partitions of a topic {@code authorized} refuses are TOPIC_AUTHORIZATION_FAILED.
     */
    List<U> respond(List<T> requestTopics, Predicate<String> authorized, Answer<P, R> answer, Failure<R> failure,
                    Logger log) {
        List<U> topicsOut = new ArrayList<>(requestTopics.size());
        for (T topic : requestTopics) {
            String name = topicName.apply(topic);
            List<P> requested = partitions.apply(topic);
            if (name != null && !authorized.test(name)) {
                List<R> denied = new ArrayList<>(requested.size());
                for (P partition : requested) {
                    R out = newPartition.apply(partitionIndex.applyAsInt(partition));
                    failure.write(out, Errors.TOPIC_AUTHORIZATION_FAILED.code());
                    denied.add(out);
                }
                topicsOut.add(newTopic.apply(name, denied));
                continue;
            }
            List<R> partitionsOut = new ArrayList<>(requested.size());
            for (P partition : requested) {
                int index = partitionIndex.applyAsInt(partition);
                R out = newPartition.apply(index);
                partitionsOut.add(out);
                Optional<TopicPartition> tp = TopicPartitions.of(name, index);
                if (tp.isEmpty()) {
                    failure.write(out, Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                try {
                    answer.write(tp.get(), partition, out);
                } catch (RuntimeException e) {
                    Errors error = Errors.forException(e);
                    if (error == Errors.UNKNOWN_SERVER_ERROR) {
                        log.error("{} for {}-{} failed", api, name, index, e);
                    }
                    failure.write(out, error.code());
                }
            }
            topicsOut.add(newTopic.apply(name, partitionsOut));
        }
        return topicsOut;
    }

    /** The response topics giving every requested partition the same error. */
    List<U> errorResponse(List<T> requestTopics, Errors error, Failure<R> failure) {
        List<U> topicsOut = new ArrayList<>(requestTopics.size());
        for (T topic : requestTopics) {
            List<P> requested = partitions.apply(topic);
            List<R> partitionsOut = new ArrayList<>(requested.size());
            for (P partition : requested) {
                R out = newPartition.apply(partitionIndex.applyAsInt(partition));
                failure.write(out, error.code());
                partitionsOut.add(out);
            }
            topicsOut.add(newTopic.apply(topicName.apply(topic), partitionsOut));
        }
        return topicsOut;
    }
}
