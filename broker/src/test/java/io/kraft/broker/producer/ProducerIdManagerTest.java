package io.kraft.broker.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kraft.metadata.controller.ControllerException;
import io.kraft.metadata.controller.ProducerIdBlock;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Producer ids from controller blocks: uniqueness, prefetching at 90%, and failures that a retry overcomes. */
class ProducerIdManagerTest {
    private static final int BLOCK_SIZE = 10;

    /** A controller stand-in handing out consecutive blocks, recording every request. */
    private static class Blocks implements ProducerIdManager.BlockSource {
        final List<Long> requestedEpochs = new ArrayList<>();
        final List<CompletableFuture<ProducerIdBlock>> answers = new ArrayList<>();
        long next;
        boolean answerAtOnce = true;

        @Override
        public synchronized CompletableFuture<ProducerIdBlock> allocate(int brokerId, long brokerEpoch) {
            requestedEpochs.add(brokerEpoch);
            CompletableFuture<ProducerIdBlock> answer = new CompletableFuture<>();
            answers.add(answer);
            if (answerAtOnce) {
                answerNext(answer);
            }
            return answer;
        }

        synchronized void answerNext(CompletableFuture<ProducerIdBlock> answer) {
            answer.complete(new ProducerIdBlock(1, next, BLOCK_SIZE));
            next += BLOCK_SIZE;
        }
    }

    @Test
    void handsOutEveryIdOfABlockOnceAndPrefetchesTheNextAtNinetyPercent() {
        Blocks blocks = new Blocks();
        ProducerIdManager manager = new ProducerIdManager(1, () -> 7L, blocks, 1_000);
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 8; i++) {
            ids.add(manager.nextProducerId());
        }
        assertEquals(1, blocks.requestedEpochs.size(), "no prefetch before 90% of the block is used");
        ids.add(manager.nextProducerId());
        assertEquals(2, blocks.requestedEpochs.size(), "the 9th id of 10 prefetches the next block");
        for (int i = 0; i < 21; i++) {
            assertTrue(ids.add(manager.nextProducerId()), "ids are never repeated");
        }
        assertEquals(30, ids.size());
        assertEquals(Set.of(0L, 29L), Set.of(ids.stream().min(Long::compare).orElseThrow(),
                ids.stream().max(Long::compare).orElseThrow()));
        assertEquals(List.of(7L, 7L, 7L, 7L), blocks.requestedEpochs);
    }

    @Test
    void anUnregisteredBrokerGetsNoIdsUntilItHasAnEpoch() {
        Blocks blocks = new Blocks();
        AtomicLong epoch = new AtomicLong(-1);
        ProducerIdManager manager = new ProducerIdManager(1, epoch::get, blocks, 1_000);
        ProducerIdsUnavailableException refused = assertThrows(ProducerIdsUnavailableException.class,
                manager::nextProducerId);
        assertTrue(refused.getMessage().contains("not registered"), refused.getMessage());
        assertTrue(blocks.requestedEpochs.isEmpty());
        epoch.set(3);
        assertEquals(0L, manager.nextProducerId());
        assertEquals(List.of(3L), blocks.requestedEpochs);
    }

    @Test
    void aRefusedBlockFailsOneCallAndTheNextCallAsksAgain() {
        Blocks blocks = new Blocks() {
            int calls;

            @Override
            public synchronized CompletableFuture<ProducerIdBlock> allocate(int brokerId, long brokerEpoch) {
                if (calls++ == 0) {
                    return CompletableFuture.failedFuture(new ControllerException(Errors.NOT_CONTROLLER,
                            "Node 1 is not the active controller"));
                }
                return super.allocate(brokerId, brokerEpoch);
            }
        };
        ProducerIdManager manager = new ProducerIdManager(1, () -> 1L, blocks, 1_000);
        ProducerIdsUnavailableException refused = assertThrows(ProducerIdsUnavailableException.class,
                manager::nextProducerId);
        assertTrue(refused.getMessage().contains("not the active controller"), refused.getMessage());
        assertEquals(0L, manager.nextProducerId());
    }

    @Test
    void aSlowControllerTimesOutAndItsLateBlockServesTheNextCall() {
        Blocks blocks = new Blocks();
        blocks.answerAtOnce = false;
        ProducerIdManager manager = new ProducerIdManager(1, () -> 1L, blocks, 50);
        ProducerIdsUnavailableException slow = assertThrows(ProducerIdsUnavailableException.class,
                manager::nextProducerId);
        assertTrue(slow.getMessage().contains("within 50 ms"), slow.getMessage());
        blocks.answerNext(blocks.answers.get(0));
        assertEquals(0L, manager.nextProducerId());
        assertEquals(1, blocks.answers.size(), "the late block was used, not a second request");
    }
}
