package io.kraft.systest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {
    @Test
    void handsOutDistinctBindablePorts() throws Exception {
        Set<Integer> ports = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.next();
            assertTrue(port > 0 && port <= 65_535, "port " + port);
            assertTrue(ports.add(port), "port " + port + " handed out twice");
        }
        int port = FreePorts.next();
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertEquals(port, socket.getLocalPort());
        }
    }
}
