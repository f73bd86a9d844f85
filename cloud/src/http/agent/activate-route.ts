/** POST /agent/v1/activate: an activation code traded once for a device id and token. */
import { Router } from 'express';
import { errorBodySchema } from '../../resources/schemas.js';
import { mount, type Guards, type Operation } from '../operation.js';
import {
  activationRequestSchema,
  activationResponseSchema,
  type DeviceService,
} from '../../services/devices.js';

export const gatewayOperations = {
  activate: {
    method: 'post',
    path: '/agent/v1/activate',
    summary: 'Activate an agent: trade a single-use activation code for a device token',
    description:
      'The agent then holds a WebSocket at /agent/v1/connect with `Authorization: Bearer ' +
      '<deviceToken>` (see docs/agent-protocol.md). The token is shown only here; the cloud ' +
      'keeps its SHA-256.',
    tag: 'Agent',
    auth: 'none',
    body: activationRequestSchema,
    responses: {
      201: { description: 'the device', schema: activationResponseSchema },
      400: { description: 'VALIDATION_FAILED', schema: errorBodySchema },
      401: {
        description: 'UNAUTHORIZED: the code is unknown, used or expired',
        schema: errorBodySchema,
      },
    },
  },
} satisfies Record<string, Operation>;

export function gatewayRoutes(devices: DeviceService, guards: Guards): Router {
  const router = Router();
  mount(router, guards, gatewayOperations.activate, async (req, res) => {
    res.status(201).json(await devices.activate(req.body));
  });
  return router;
}
