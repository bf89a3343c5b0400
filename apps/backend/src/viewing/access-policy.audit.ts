import { Injectable, OnModuleInit } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { ACCESS_POLICY } from '../access/access';

/** `@ApiExcludeController()`'s metadata key (not exported by @nestjs/swagger). */
const API_EXCLUDE_CONTROLLER = 'swagger/apiExcludeController';

/**
 * Fails the start-up when a route of the contract declares no access rule (`@Public`,
 * `@SignedIn`, `@ViewingAs`), so that forgetting one can never make a route silently public.
 * Controllers excluded from the contract (health, metrics, version) are infrastructure, left out.
 */
@Injectable()
export class AccessPolicyAudit implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onModuleInit(): void {
    const missing: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as Function | null;
      if (!controller || Reflect.getMetadata(API_EXCLUDE_CONTROLLER, controller)?.[0] === true) continue;
      const prototype = controller.prototype as Record<string, Function>;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[method];
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const policy =
          Reflect.getMetadata(ACCESS_POLICY, handler) ?? Reflect.getMetadata(ACCESS_POLICY, controller);
        if (!policy) missing.push(`${controller.name}.${method}`);
      }
    }
    if (missing.length > 0) {
      throw new Error(
        `Routes without an access rule (@Public, @SignedIn or @ViewingAs): ${missing.join(', ')}`,
      );
    }
  }
}
