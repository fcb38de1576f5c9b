package io.kraft.metadata.quota;

import java.util.List;

/** One entity's entry of an AlterClientQuotas request: the keys to set (with a value) or remove (value null). */
public record ClientQuotaAlteration(ClientQuotaEntity entity, List<Op> ops) {
    /** Set {@code key} to {@code value}, or remove it when {@code value} is null. */
    public record Op(String key, Double value) {
        public boolean remove() {
            return value == null;
        }
    }

    public ClientQuotaAlteration {
        ops = List.copyOf(ops);
    }
}
