// The org-locations read path in memory: the same shape as our organizationLocations query
// (20 locations × 3 DSP connections), for the ceiling and the peer to serve.
import SchemaBuilder from '@pothos/core';

export const READ_QUERY = `query OrgLocations($orgId: ID!) {
  organizationLocations(orgId: $orgId) {
    locations { id name status providerId address { locality country } dsps { id name source status changeTime } }
  }
}`;

type Dsp = { id: string; name: string; source: string; status: string; changeTime: number };
type Location = {
  id: string;
  name: string;
  status: string;
  providerId: string;
  address: { locality: string; country: string };
  dsps: Dsp[];
};

export const locations: Location[] = Array.from({ length: 20 }, (_, i) => ({
  id: `loc_${i}`,
  name: `Sandbox Grill ${i}`,
  status: 'active',
  providerId: `loc_${i}_pos`,
  address: { locality: 'Austin', country: 'US' },
  dsps: Array.from({ length: 3 }, (_, j) => ({
    id: `dsp_${i}_${j}`,
    name: `Store ${i}-${j}`,
    source: 'sandbox-dsp',
    status: 'APPROVED',
    changeTime: 1_700_000_000_000,
  })),
}));

export function memorySchema() {
  // No plugins: the options type is widened by our plugins' declarations, which do not apply here.
  const builder = new SchemaBuilder<{ DefaultFieldNullability: false }>({ defaultFieldNullability: false } as never);
  const Address = builder
    .objectRef<Location['address']>('Address')
    .implement({ fields: (t) => ({ locality: t.exposeString('locality'), country: t.exposeString('country') }) });
  const DspRef = builder.objectRef<Dsp>('DspConnection').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      source: t.exposeString('source'),
      status: t.exposeString('status'),
      changeTime: t.exposeFloat('changeTime'),
    }),
  });
  const LocationRef = builder.objectRef<Location>('Location').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      name: t.exposeString('name'),
      status: t.exposeString('status'),
      providerId: t.exposeString('providerId'),
      address: t.field({ type: Address, resolve: (l) => l.address }),
      dsps: t.field({ type: [DspRef], resolve: (l) => l.dsps }),
    }),
  });
  const Payload = builder.objectRef<{ locations: Location[] }>('OrganizationLocationsPayload').implement({
    fields: (t) => ({ locations: t.field({ type: [LocationRef], resolve: (p) => p.locations }) }),
  });
  builder.queryType({
    fields: (t) => ({
      organizationLocations: t.field({ type: Payload, args: { orgId: t.arg.id({ required: true }) }, resolve: () => ({ locations }) }),
    }),
  });
  return builder.toSchema();
}
