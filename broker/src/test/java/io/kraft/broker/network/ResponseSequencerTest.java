package io.kraft.broker.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Responses are released strictly in request order whatever order they complete in. */
class ResponseSequencerTest {

    @Test
    void holdsALaterResponseUntilTheEarlierOnesComplete() {
        ResponseSequencer<String> sequencer = new ResponseSequencer<>();
        long first = sequencer.nextSequence();
        long second = sequencer.nextSequence();
        long third = sequencer.nextSequence();
        assertEquals(List.of(), sequencer.complete(third, "c"));
        assertEquals(List.of(), sequencer.complete(second, "b"));
        assertEquals(List.of("a", "b", "c"), sequencer.complete(first, "a"));
        assertEquals(0, sequencer.pending());
    }

    @Test
    void releasesInOrderForEveryCompletionOrder() {
        long seed = Long.getLong("kraft.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            ResponseSequencer<Long> sequencer = new ResponseSequencer<>();
            int count = 1 + random.nextInt(20);
            List<Long> sequences = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                sequences.add(sequencer.nextSequence());
            }
            Collections.shuffle(sequences, random);
            List<Long> released = new ArrayList<>();
            for (long sequence : sequences) {
                released.addAll(sequencer.complete(sequence, sequence));
            }
            List<Long> expected = new ArrayList<>(sequences);
            Collections.sort(expected);
            assertEquals(expected, released, "replay with -Dkraft.seed=" + seed);
        }
    }

    @Test
    void rejectsACompletionThatWasNeverAssignedOrCameTwice() {
        ResponseSequencer<String> sequencer = new ResponseSequencer<>();
        long only = sequencer.nextSequence();
        assertThrows(IllegalStateException.class, () -> sequencer.complete(only + 1, "x"));
        sequencer.complete(only, "a");
        assertThrows(IllegalStateException.class, () -> sequencer.complete(only, "again"));
    }

    @Test
    void handsOverTheResponsesHeldBehindAnEarlierOneWhenTheConnectionGoes() {
        ResponseSequencer<String> sequencer = new ResponseSequencer<>();
        sequencer.nextSequence();
        long second = sequencer.nextSequence();
        long third = sequencer.nextSequence();
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), sequencer.complete(third, "c"));
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), sequencer.complete(second, "b"));
        org.junit.jupiter.api.Assertions.assertEquals(java.util.Set.of("b", "c"),
                new java.util.HashSet<>(sequencer.takeHeld()));
        org.junit.jupiter.api.Assertions.assertEquals(java.util.List.of(), sequencer.takeHeld());
    }
}
