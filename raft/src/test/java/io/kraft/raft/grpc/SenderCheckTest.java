package io.kraft.raft.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Context;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** A message's sender against the call's authenticated peer. */
class SenderCheckTest {
    private final SenderCheck senders = new SenderCheck(1);

    private static <T> T as(ControlPlanePeer peer, Callable<T> call) throws Exception {
        return Context.current().withValue(ControlPlanePeer.CONTEXT_KEY, peer).call(call);
    }

    @Test
    void onPlaintextThereIsNoPeerAndEveryClaimPasses() {
        assertTrue(ControlPlanePeer.current().isEmpty());
        assertNull(senders.refusal("Vote", 3));
    }

    @Test
    void aNodeMayNameOnlyItselfAndAnAdministratorNoNode() throws Exception {
        ControlPlanePeer node3 = new ControlPlanePeer("User:CN=kraft-node-3", OptionalInt.of(3), false);
        assertNull(as(node3, () -> senders.refusal("Vote", 3)));
        StatusRuntimeException claimed = as(node3, () -> senders.refusal("Fetch", 2));
        assertEquals(Status.Code.PERMISSION_DENIED, claimed.getStatus().getCode());
        assertEquals("Fetch refused: peer User:CN=kraft-node-3 (node 3) claimed to be node 2",
                claimed.getStatus().getDescription());

        ControlPlanePeer admin = new ControlPlanePeer("User:CN=ops", OptionalInt.empty(), true);
        assertTrue(admin.mayCall());
        assertEquals(Status.Code.PERMISSION_DENIED,
                as(admin, () -> senders.refusal("RegisterBroker", 3)).getStatus().getCode());
        assertFalse(new ControlPlanePeer("User:CN=stranger", OptionalInt.empty(), false).mayCall());
    }
}
