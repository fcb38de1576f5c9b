package io.kraft.metadata.controller;

import io.kraft.storage.errors.Errors;

/**
 * InitProducerId's answer for a transactional id: the producer id and epoch to use, or an error that came with
 * records (CONCURRENT_TRANSACTIONS after the fenced epoch's open transaction was set to abort).
 */
public record TransactionalProducer(Errors error, long producerId, short producerEpoch) {
    public static TransactionalProducer of(long producerId, short producerEpoch) {
        return new TransactionalProducer(Errors.NONE, producerId, producerEpoch);
    }
}
