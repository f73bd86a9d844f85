/** Devices and activation codes: query keys (the live channel invalidates 'devices'). */
import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../api/client';

export const deviceKeys = {
  devices: (orgId: string) => ['orgs', orgId, 'devices'] as const,
  activationCodes: (orgId: string) => ['orgs', orgId, 'activation-codes'] as const,
};

export const useDevices = (orgId: string) =>
  useQuery({
    queryKey: deviceKeys.devices(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/devices', { params: { path: { orgId } } })),
  });
