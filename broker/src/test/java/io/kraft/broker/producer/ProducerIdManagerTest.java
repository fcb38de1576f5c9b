package io.kraft.broker.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Producer ids from controller blocks: uniqueness, prefetching at 90%, failures that a retry overcomes, and callers
 * answered when a block arrives rather than waiting for it.
 */
class ProducerIdManagerTest {
    private static final int BLOCK_SIZE = 10;

    private static long next(ProducerIdManager manager) {
        return manager.nextProducerId().join();
    }

    /** The failure of a call that gets no id. */
    private static ProducerIdsUnavailableException refused(ProducerIdManager manager) {
        CompletionException failed = assertThrows(CompletionException.class, () -> manager.nextProducerId().join());
        return assertInstanceOf(ProducerIdsUnavailableException.class, failed.getCause());
    }

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
            ids.add(next(manager));
        }
        assertEquals(1, blocks.requestedEpochs.size(), "no prefetch before 90% of the block is used");
        ids.add(next(manager));
        assertEquals(2, blocks.requestedEpochs.size(), "the 9th id of 10 prefetches the next block");
        for (int i = 0; i < 21; i++) {
            assertTrue(ids.add(next(manager)), "ids are never repeated");
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
        ProducerIdsUnavailableException refused = refused(manager);
        assertTrue(refused.getMessage().contains("not registered"), refused.getMessage());
        assertTrue(blocks.requestedEpochs.isEmpty());
        epoch.set(3);
        assertEquals(0L, next(manager));
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
        ProducerIdsUnavailableException refused = refused(manager);
        assertTrue(refused.getMessage().contains("not the active controller"), refused.getMessage());
        assertEquals(0L, next(manager));
    }

    @Test
    void aSlowControllerTimesOutAndItsLateBlockServesTheNextCall() {
        Blocks blocks = new Blocks();
        blocks.answerAtOnce = false;
        ProducerIdManager manager = new ProducerIdManager(1, () -> 1L, blocks, 50);
        ProducerIdsUnavailableException slow = refused(manager);
        assertTrue(slow.getMessage().contains("within 50 ms"), slow.getMessage());
        blocks.answerNext(blocks.answers.get(0));
        assertEquals(0L, next(manager));
        assertEquals(1, blocks.answers.size(), "the late block was used, not a second request");
    }

    @Test
    void callersWaitingForABlockAreAnsweredWhenItArrivesAndShareIt() {
        Blocks blocks = new Blocks();
        blocks.answerAtOnce = false;
        ProducerIdManager manager = new ProducerIdManager(1, () -> 1L, blocks, 60_000);
        CompletableFuture<Long> first = manager.nextProducerId();
        CompletableFuture<Long> second = manager.nextProducerId();
        assertFalse(first.isDone(), "no block yet: the call returns at once with a pending answer");
        assertFalse(second.isDone());
        assertEquals(1, blocks.answers.size(), "both callers wait for the one block asked for");
        blocks.answerNext(blocks.answers.get(0));
        assertEquals(Set.of(0L, 1L), Set.of(first.join(), second.join()));
        assertEquals(2L, next(manager));
    }

    @Test
    void callersWaitingForASmallBlockThatRunsOutAskForTheNext() {
        Blocks blocks = new Blocks();
        blocks.answerAtOnce = false;
        ProducerIdManager manager = new ProducerIdManager(1, () -> 1L, blocks, 60_000);
        List<CompletableFuture<Long>> waiting = new ArrayList<>();
        for (int i = 0; i < BLOCK_SIZE + 1; i++) {
            waiting.add(manager.nextProducerId());
        }
        blocks.answerNext(blocks.answers.get(0));
        assertEquals(2, blocks.answers.size(), "one more block: the prefetch at 90%, which the caller left without an id waits for");
        blocks.answerNext(blocks.answers.get(1));
        Set<Long> ids = new HashSet<>();
        for (CompletableFuture<Long> id : waiting) {
            assertTrue(ids.add(id.join()), "ids are never repeated");
        }
        assertEquals(BLOCK_SIZE + 1, ids.size());
    }
}
