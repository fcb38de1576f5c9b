package io.kraft.metadata.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The image's persistent maps read as plain maps: their views walk the trie and match a hash map's, read-only. */
class PersistentMapsTest {
    @Test
    void viewsMatchAHashMapAndRefuseChanges() {
        Map<Integer, String> plain = new HashMap<>();
        PersistentMaps.Builder<Integer, String> builder = PersistentMaps.edit(PersistentMaps.empty());
        for (int i = 0; i < 1_000; i++) {
            plain.put(i, "v" + i);
            builder.put(i, "v" + i);
        }
        builder.remove(7);
        plain.remove(7);
        Map<Integer, String> persistent = builder.build();

        assertEquals(plain, persistent);
        assertEquals(persistent, plain);
        assertEquals(plain.hashCode(), persistent.hashCode());
        assertEquals(plain.keySet(), persistent.keySet());
        assertEquals(plain.entrySet(), persistent.entrySet());
        assertEquals(new HashMap<>(plain).values().stream().sorted().toList(),
                persistent.values().stream().sorted().toList());
        Map<Integer, String> walked = new HashMap<>();
        persistent.forEach(walked::put);
        assertEquals(plain, walked);
        assertTrue(persistent.containsKey(8));
        assertFalse(persistent.containsKey(7));
        assertNull(persistent.get(7));
        assertTrue(persistent.entrySet().contains(Map.entry(8, "v8")));
        assertFalse(persistent.entrySet().contains(Map.entry(8, "other")));

        assertThrows(UnsupportedOperationException.class, () -> persistent.put(1, "x"));
        assertThrows(UnsupportedOperationException.class, () -> persistent.remove(1));
        assertThrows(UnsupportedOperationException.class, () -> persistent.entrySet().iterator().next().setValue("x"));
        assertTrue(PersistentMaps.isPersistent(persistent));
        assertTrue(PersistentMaps.of(persistent) == persistent, "kept as it is, not copied");
    }
}
