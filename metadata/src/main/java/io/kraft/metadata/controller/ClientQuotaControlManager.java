package io.kraft.metadata.controller;

import io.kraft.metadata.MetadataRecords;
import io.kraft.metadata.quota.ClientQuotaAlteration;
import io.kraft.metadata.quota.ClientQuotaKeys;
import io.kraft.proto.metadata.ClientQuotaRecord;
import io.kraft.proto.metadata.MetadataRecord;
import io.kraft.storage.errors.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * AlterClientQuotas on the active controller: validates each entity and key as Kafka does (INVALID_REQUEST naming the
 * problem) and turns each valid entry into one record per key. Entries are independent: a bad one fails alone. It
 * keeps no state, since setting a value or removing a key is the same whatever was there before.
 */
final class ClientQuotaControlManager {
    /** One result per entry, in order; no records when {@code validateOnly}. */
    ControllerResult<List<ApiError>> alterClientQuotas(List<ClientQuotaAlteration> entries, boolean validateOnly) {
        List<MetadataRecord> records = new ArrayList<>();
        List<ApiError> results = new ArrayList<>(entries.size());
        for (ClientQuotaAlteration entry : entries) {
            String invalid = invalid(entry);
            if (invalid != null) {
                results.add(ApiError.of(Errors.INVALID_REQUEST, invalid));
                continue;
            }
            if (!validateOnly) {
                for (ClientQuotaAlteration.Op op : entry.ops()) {
                    ClientQuotaRecord.Builder record = ClientQuotaRecord.newBuilder()
                            .addAllEntity(entry.entity().toRecord()).setKey(op.key());
                    if (op.remove()) {
                        record.setRemove(true);
                    } else {
                        record.setValue(op.value());
                    }
                    records.add(MetadataRecords.of(record.build()));
                }
            }
            results.add(ApiError.NONE);
        }
        return ControllerResult.of(records, results);
    }

    private static String invalid(ClientQuotaAlteration entry) {
        String invalid = ClientQuotaKeys.invalidEntity(entry.entity());
        if (invalid != null) {
            return invalid;
        }
        Set<String> keys = new HashSet<>();
        for (ClientQuotaAlteration.Op op : entry.ops()) {
            if (!keys.add(op.key())) {
                return "Duplicate quota key " + op.key() + " not updating quota for entity " + entry.entity();
            }
            invalid = ClientQuotaKeys.invalidValue(entry.entity(), op.key(), op.remove() ? 1 : op.value());
            if (invalid != null) {
                return invalid;
            }
        }
        return null;
    }
}
