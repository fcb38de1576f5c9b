package io.kraft.server.grpc;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kraft.proto.controller.AlterPartitionRequest;
import io.kraft.proto.controller.CreatableTopic;
import io.kraft.proto.controller.RegisterBrokerRequest;
import io.kraft.proto.metadata.BrokerEndpoint;
import io.kraft.proto.metadata.BrokerIdList;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Controller RPCs with values no broker sends are refused before the controller builds anything for them. */
class ControllerRequestChecksTest {
    @Test
    void refusesNegativeIdsEpochsAndPartitions() {
        assertEquals("broker id -1 is negative", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.brokerIdAndEpoch(-1, 5)).getMessage());
        assertEquals("broker epoch -7 is below -1", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.brokerIdAndEpoch(2, -7)).getMessage());
        assertDoesNotThrow(() -> ControllerRequestChecks.brokerIdAndEpoch(2, -1));
        assertEquals("ISR broker id -3 is negative", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.alterPartition(AlterPartitionRequest.newBuilder().setBrokerId(2)
                        .addNewIsr(2).addNewIsr(-3).build())).getMessage());
        assertEquals("leader epoch -1 is negative", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.alterPartition(AlterPartitionRequest.newBuilder().setBrokerId(2)
                        .setLeaderEpoch(-1).build())).getMessage());
        assertEquals("1 ISR broker epochs for 2 ISR entries", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.alterPartition(AlterPartitionRequest.newBuilder().setBrokerId(2)
                        .addNewIsr(2).addNewIsr(3).addNewIsrBrokerEpochs(7).build())).getMessage());
    }

    @Test
    void refusesSizesBeyondAnyRealRequest() {
        RegisterBrokerRequest.Builder register = RegisterBrokerRequest.newBuilder().setBrokerId(3);
        for (int i = 0; i < 65; i++) {
            register.addListeners(BrokerEndpoint.newBuilder().setName("L" + i));
        }
        assertEquals("65 listeners, over 64", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.registerBroker(register.build())).getMessage());
        CreatableTopic wide = CreatableTopic.newBuilder().setName("t")
                .putAssignments(0, BrokerIdList.newBuilder().addAllBrokerIds(Collections.nCopies(40_000, 1)).build())
                .build();
        assertEquals("40000 replicas of partition 0, over 32767", assertThrows(IllegalArgumentException.class,
                () -> ControllerRequestChecks.creatableTopic(wide)).getMessage());
        assertNull(ControllerRequestChecks.entries("topics", 10_000));
        assertEquals("10001 topics in one request, over 10000", ControllerRequestChecks.entries("topics", 10_001));
    }
}
