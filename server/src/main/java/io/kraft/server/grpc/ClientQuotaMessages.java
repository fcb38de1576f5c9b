package io.kraft.server.grpc;

import io.kraft.metadata.controller.ApiError;
import io.kraft.metadata.quota.ClientQuotaAlteration;
import io.kraft.metadata.quota.ClientQuotaEntity;
import io.kraft.proto.controller.ClientQuotaEntry;
import io.kraft.proto.controller.ClientQuotaResult;
import io.kraft.proto.metadata.ClientQuotaRecord;

/** The control plane's form of AlterClientQuotas: entries of an entity with its ops, and per-entry results. */
final class ClientQuotaMessages {
    private ClientQuotaMessages() {
    }

    static ClientQuotaEntry entry(ClientQuotaAlteration alteration) {
        ClientQuotaEntry.Builder entry = ClientQuotaEntry.newBuilder().addAllEntity(alteration.entity().toRecord());
        for (ClientQuotaAlteration.Op op : alteration.ops()) {
            ClientQuotaRecord.Builder record = ClientQuotaRecord.newBuilder().setKey(op.key());
            if (op.remove()) {
                record.setRemove(true);
            } else {
                record.setValue(op.value());
            }
            entry.addOps(record);
        }
        return entry.build();
    }

    static ClientQuotaAlteration alteration(ClientQuotaEntry entry) {
        return new ClientQuotaAlteration(ClientQuotaEntity.fromRecord(entry.getEntityList()), entry.getOpsList()
                .stream().map(op -> new ClientQuotaAlteration.Op(op.getKey(), op.getRemove() ? null : op.getValue()))
                .toList());
    }

    static ClientQuotaResult result(ApiError error) {
        return ClientQuotaResult.newBuilder().setErrorCode(error.error().code())
                .setErrorMessage(error.message() == null ? "" : error.message()).build();
    }

    static ApiError result(ClientQuotaResult result) {
        return ApiError.of(GrpcControllerClient.errorFor(result.getErrorCode()),
                result.getErrorMessage().isEmpty() ? null : result.getErrorMessage());
    }
}
