package io.kraft.broker.api.data;

import io.kraft.broker.api.TopicPartitions;
import io.kraft.broker.protocol.schema.Struct;
import io.kraft.storage.errors.Errors;
import io.kraft.storage.log.TopicPartition;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The per-partition loop of requests shaped {@code topics[] -> partitions[]} whose response mirrors them
 * (ListOffsets, OffsetForLeaderEpoch, DeleteRecords): each partition is resolved on its own, and a failure becomes
 * that partition's error code without touching the others.
 *
 * @param api            the API's name, for the log line of an unexpected failure
 * @param topicName      the name field of a topic, in request and response ("name" or "topic")
 * @param partitionIndex the index field of a partition, in request and response
 */
record PartitionRequests(String api, String topicName, String partitionIndex) {
    /** Answers one partition: writes its fields (but not error_code) into {@code out}, or throws. */
    interface Answer {
        void write(TopicPartition tp, Struct request, Struct out);
    }

    /** Writes a failed partition's fields: error_code and the API's "unknown" values. */
    interface Failure {
        void write(Struct out, short errorCode);
    }

    /** Fills {@code response} with one answer per requested partition, in request order. */
    Struct respond(Struct requestBody, Struct response, Answer answer, Failure failure, Logger log) {
        for (Struct topic : requestBody.getStructs("topics")) {
            String name = topic.getString(topicName);
            Struct topicOut = response.addStruct("topics");
            topicOut.set(topicName, name);
            for (Struct partition : topic.getStructs("partitions")) {
                int index = partition.getInt(partitionIndex);
                Struct out = topicOut.addStruct("partitions");
                out.set(partitionIndex, index);
                Optional<TopicPartition> tp = TopicPartitions.of(name, index);
                if (tp.isEmpty()) {
                    failure.write(out, Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                try {
                    answer.write(tp.get(), partition, out);
                    out.set("error_code", Errors.NONE.code());
                } catch (RuntimeException e) {
                    Errors error = Errors.forException(e);
                    if (error == Errors.UNKNOWN_SERVER_ERROR) {
                        log.error("{} for {}-{} failed", api, name, index, e);
                    }
                    failure.write(out, error.code());
                }
            }
        }
        return response;
    }

    /** The response giving every requested partition the same error. */
    Optional<Struct> errorResponse(Struct requestBody, Struct response, short errorCode, Failure failure) {
        for (Struct topic : requestBody.getStructs("topics")) {
            Struct topicOut = response.addStruct("topics");
            topicOut.set(topicName, topic.getString(topicName));
            for (Struct partition : topic.getStructs("partitions")) {
                Struct out = topicOut.addStruct("partitions");
                out.set(partitionIndex, partition.getInt(partitionIndex));
                failure.write(out, errorCode);
            }
        }
        return Optional.of(response);
    }
}
