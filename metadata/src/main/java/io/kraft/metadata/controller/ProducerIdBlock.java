package io.kraft.metadata.controller;

/** A range of producer ids handed to one broker: [firstProducerId, firstProducerId + size). */
public record ProducerIdBlock(int assignedBrokerId, long firstProducerId, int size) {
    public long lastProducerId() {
        return firstProducerId + size - 1;
    }
}
