/* eslint-disable */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = T | null | undefined;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  JSON: { input: any; output: any; }
};

/** A postal address, with its coordinates when known. */
export type Address = {
  __typename?: 'Address';
  addressLine1?: Maybe<Scalars['String']['output']>;
  addressLine2?: Maybe<Scalars['String']['output']>;
  addressLine3?: Maybe<Scalars['String']['output']>;
  administrativeDistrictLevel1?: Maybe<Scalars['String']['output']>;
  country?: Maybe<Scalars['String']['output']>;
  formattedAddress?: Maybe<Scalars['String']['output']>;
  latitude?: Maybe<Scalars['Float']['output']>;
  locality?: Maybe<Scalars['String']['output']>;
  longitude?: Maybe<Scalars['Float']['output']>;
  postalCode?: Maybe<Scalars['String']['output']>;
};

export type AssignMenusInput = {
  /** The id of a DSP connection (an entry of an organization location's dsps). */
  dspLocationId: Scalars['ID']['input'];
  /** The full set of menus; empty restores the default (all menus). */
  menuProviderIds: Array<Scalars['String']['input']>;
  orgId: Scalars['ID']['input'];
};

export type AssignMenusPayload = {
  __typename?: 'AssignMenusPayload';
  dspLocationId: Scalars['ID']['output'];
  menuProviderIds: Array<Scalars['String']['output']>;
};

export type BindDspLocationsInput = {
  locations: Array<BindLocationEntry>;
  /** A completed DSP onboarding. */
  onboardingId: Scalars['ID']['input'];
};

export type BindDspLocationsPayload = {
  __typename?: 'BindDspLocationsPayload';
  locations: Array<BoundLocation>;
};

export type BindLocationEntry = {
  /** The DSP's own store id. */
  dspProviderId: Scalars['String']['input'];
  dspStoreName: Scalars['String']['input'];
  /** The id of an ingested location. */
  posLocationId: Scalars['ID']['input'];
};

export type BoundLocation = {
  __typename?: 'BoundLocation';
  /** The DSP's own store id. */
  dspProviderId: Scalars['String']['output'];
  dspStoreName: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  status: Scalars['String']['output'];
};

/** A busy spell: each order quoted extraPrepMinutes more, until untilMs (null: until ended). */
export type Busy = {
  __typename?: 'Busy';
  extraPrepMinutes: Scalars['Int']['output'];
  untilMs?: Maybe<Scalars['Float']['output']>;
};

/** A category of items. */
export type CatalogCategory = {
  __typename?: 'CatalogCategory';
  itemIds: Array<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  providerId: Scalars['String']['output'];
};

/** An item. */
export type CatalogItem = {
  __typename?: 'CatalogItem';
  description?: Maybe<Scalars['String']['output']>;
  modifierGroupIds: Array<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** In the catalog's currency; null when the POS sent no whole amount, or its catalog names no currency. */
  price?: Maybe<Money>;
  providerId: Scalars['String']['output'];
  taxIds: Array<Scalars['String']['output']>;
};

/** A menu; its provider_id is what menu assignment takes. */
export type CatalogMenu = {
  __typename?: 'CatalogMenu';
  categoryIds: Array<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  providerId: Scalars['String']['output'];
  /** Its opening hours; null: open whenever the location is. */
  schedule?: Maybe<MenuSchedule>;
};

/** A modifier; it may open further modifier groups. */
export type CatalogModifier = {
  __typename?: 'CatalogModifier';
  modifierGroupIds: Array<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  /** In the catalog's currency; null when the POS sent no whole amount, or its catalog names no currency. */
  price?: Maybe<Money>;
  providerId: Scalars['String']['output'];
};

/** A group of modifiers of an item or, nested, of a modifier. */
export type CatalogModifierGroup = {
  __typename?: 'CatalogModifierGroup';
  maxSelections?: Maybe<Scalars['Int']['output']>;
  minSelections?: Maybe<Scalars['Int']['output']>;
  modifierIds: Array<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  providerId: Scalars['String']['output'];
};

/** A tax. */
export type CatalogTax = {
  __typename?: 'CatalogTax';
  name?: Maybe<Scalars['String']['output']>;
  providerId: Scalars['String']['output'];
  /** Percent. */
  rate?: Maybe<Scalars['Float']['output']>;
};

/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersion = {
  __typename?: 'CatalogVersion';
  /** The catalog's categories, in its order, a page at a time. */
  categories: Array<CatalogCategory>;
  /** Lower-case ISO 4217 code: the location's currency, which its prices and orders are in. */
  currency?: Maybe<Scalars['String']['output']>;
  defaultLanguage?: Maybe<Scalars['String']['output']>;
  /** Epoch milliseconds. */
  fetchedAt: Scalars['Float']['output'];
  /** The catalog's items, in its order, a page at a time. */
  items: Array<CatalogItem>;
  /** The catalog's menus, in its order, a page at a time. */
  menus: Array<CatalogMenu>;
  /** The catalog's modifier groups, in its order, a page at a time. */
  modifierGroups: Array<CatalogModifierGroup>;
  /** The catalog's modifiers, in its order, a page at a time. */
  modifiers: Array<CatalogModifier>;
  /** Why it cannot be published; empty when it is valid. */
  problems: Array<Scalars['String']['output']>;
  taxRate?: Maybe<Scalars['Float']['output']>;
  /** The catalog's taxes, in its order, a page at a time. */
  taxes: Array<CatalogTax>;
  version: Scalars['Int']['output'];
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionCategoriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionItemsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionMenusArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionModifierGroupsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionModifiersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


/** A catalog fetched from the POS; each fetch is a new version. */
export type CatalogVersionTaxesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};

export type ChangeContextsInput = {
  contexts: Array<ContextInput>;
  /** The flag key or segment key. */
  key: Scalars['String']['input'];
  /** Your own partner id. */
  partnerId: Scalars['ID']['input'];
};

/** A day the location takes no orders, in its time zone. */
export type ClosedDay = {
  __typename?: 'ClosedDay';
  /** YYYY-MM-DD. */
  date: Scalars['String']['output'];
  name: Scalars['String']['output'];
};

export type CompleteOnboardingInput = {
  /** The code the callback added to return_url. */
  code: Scalars['String']['input'];
  id: Scalars['ID']['input'];
};

export type Context = {
  __typename?: 'Context';
  key: Scalars['String']['output'];
  kind: Scalars['String']['output'];
};

export type ContextInput = {
  /** A user or entity id. */
  key: Scalars['String']['input'];
  /** Matches [A-Za-z0-9._-]+, not "kind" or "multi"; defaults to user. */
  kind?: InputMaybe<Scalars['String']['input']>;
};

export type CreateOrganizationInput = {
  name: Scalars['String']['input'];
  /** The partner's own id for this merchant. */
  providerId: Scalars['String']['input'];
  user: CreateOrganizationUser;
};

export type CreateOrganizationPayload = {
  __typename?: 'CreateOrganizationPayload';
  orgId: Scalars['ID']['output'];
  userId: Scalars['ID']['output'];
};

export type CreateOrganizationUser = {
  email: Scalars['String']['input'];
  firstName?: InputMaybe<Scalars['String']['input']>;
  lastName?: InputMaybe<Scalars['String']['input']>;
};

export type CreatePartnerTokenInput = {
  orgId: Scalars['ID']['input'];
  scopes: Array<Scope>;
  tokenName: Scalars['String']['input'];
};

export type CreateWebhookEndpointInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  /** The types to receive; absent or empty: all. */
  eventTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Only this organization's events. */
  orgId?: InputMaybe<Scalars['ID']['input']>;
  /** https (http to this machine only in the sandbox), at a public address. */
  url: Scalars['String']['input'];
};

/** A location's local day: each platform's orders counted and summed, and their total. */
export type DailyStatement = {
  __typename?: 'DailyStatement';
  /** YYYY-MM-DD on the location’s clock. */
  date: Scalars['String']['output'];
  /** The next day’s first instant, epoch milliseconds. */
  endsAt: Scalars['Float']['output'];
  /** 24; 23 or 25 on a day the clocks change. */
  hours: Scalars['Float']['output'];
  locationId: Scalars['ID']['output'];
  /** One line per platform and currency. */
  platforms: Array<StatementLine>;
  /** Its first instant, epoch milliseconds. */
  startsAt: Scalars['Float']['output'];
  /** The location’s IANA time zone. */
  timeZone: Scalars['String']['output'];
  /** Every platform together, one line per currency. */
  totals: Array<StatementLine>;
};

/** The merchant user of a dashboard session. */
export type DashboardViewer = {
  __typename?: 'DashboardViewer';
  /** Owners and admins choose the event provider that delivers the merchant's own orders. */
  canChooseEventProvider: Scalars['Boolean']['output'];
  /** Owners, admins and managers pause and resume stores, make them busy and take items off sale. */
  canControlStores: Scalars['Boolean']['output'];
  /** Owners, admins and managers read the end of day (dailyStatements): each platform's orders of a day, summed. */
  canReadEndOfDay: Scalars['Boolean']['output'];
  /** Owners and admins redeliver dead deliveries. */
  canRedeliver: Scalars['Boolean']['output'];
  organization: Organization;
  user: User;
};

export type DeleteLocationInput = {
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
};

export type DeleteLocationPayload = {
  __typename?: 'DeleteLocationPayload';
  deleted: Scalars['Boolean']['output'];
  id: Scalars['ID']['output'];
};

export type DeletedWebhookEndpoint = {
  __typename?: 'DeletedWebhookEndpoint';
  id: Scalars['ID']['output'];
};

/** A message to a POS, DSP or event provider, and how its delivery is going. */
export type Delivery = {
  __typename?: 'Delivery';
  attempts: Scalars['Int']['output'];
  createdAt: Scalars['Float']['output'];
  deliveredAt?: Maybe<Scalars['Float']['output']>;
  id: Scalars['ID']['output'];
  idempotencyKey: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  lastError?: Maybe<Scalars['String']['output']>;
  lastStatus?: Maybe<Scalars['Int']['output']>;
  source: Scalars['String']['output'];
  /** pending, delivered or dead. */
  status: Scalars['String']['output'];
};

/** A merchant-delivered order's driver, as its event provider assigned it. */
export type Driver = {
  __typename?: 'Driver';
  name: Scalars['String']['output'];
  phone?: Maybe<DriverPhone>;
  /** The fleet or company the driver drives for. */
  source?: Maybe<Scalars['String']['output']>;
  vehicleInfo?: Maybe<VehicleInfo>;
};

export type DriverPhone = {
  __typename?: 'DriverPhone';
  /** The country calling code, e.g. +1. */
  code?: Maybe<Scalars['String']['output']>;
  number: Scalars['String']['output'];
};

/** A DSP store bound to a location. */
export type DspConnection = {
  __typename?: 'DspConnection';
  /** Epoch milliseconds of the last change. */
  changeTime: Scalars['Float']['output'];
  /** What the DSP says of its own store: online or paused (its store.status webhook). */
  dspStatus: Scalars['String']['output'];
  /** The DSP's own store id. */
  dspStoreId: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  /** The status of the DSP onboarding the store goes through: active, or reauthorization_required once the merchant revoked the app at the DSP. */
  integrationStatus: Scalars['String']['output'];
  /** The assigned menus; null when none are assigned (every menu is published). */
  menuProviderIds?: Maybe<Array<Scalars['String']['output']>>;
  name: Scalars['String']['output'];
  /** Epoch ms a pause of ours ends; -1 while paused until resumed; null when the store takes orders (from us). */
  pausedUntil?: Maybe<Scalars['Float']['output']>;
  /** The latest menu publishes to this store, newest first. */
  publishes: Array<MenuPublish>;
  source: Scalars['String']['output'];
  status: Scalars['String']['output'];
};


/** A DSP store bound to a location. */
export type DspConnectionPublishesArgs = {
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type EndLocationBusyInput = {
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
};

export type ErasurePayload = {
  __typename?: 'ErasurePayload';
  /** Open orders, redacted when each reaches a final state. */
  ordersPending: Scalars['Int']['output'];
  /** Final orders whose customer data was replaced now. */
  ordersRedacted: Scalars['Int']['output'];
};

export type EvaluationReason =
  | 'FALLTHROUGH'
  | 'OFF'
  | 'SEGMENT_MATCH'
  | 'TARGET_MATCH';

/** A change a partner would want to know of; the same as its webhooks deliver. */
export type Event = {
  __typename?: 'Event';
  /** Epoch ms. */
  createdAt: Scalars['Float']['output'];
  /** What changed, in the REST wire names. */
  data: Scalars['JSON']['output'];
  id: Scalars['ID']['output'];
  orgId?: Maybe<Scalars['String']['output']>;
  /** onboarding.updated, location.ingested, location.deleted, location.paused, location.resumed, location.items.availability, location.busy, location.busy.ended, dsp_connection.bound, dsp_connection.status, menu.publish.succeeded, menu.publish.failed, order.created, order.updated, order.failed, delivery.dead */
  type: Scalars['String']['output'];
};

export type EventsPage = {
  __typename?: 'EventsPage';
  events: Array<Event>;
  /** Pass as `after` for the events after these (the same cursor again when none came). */
  nextCursor?: Maybe<Scalars['String']['output']>;
};

/** What the platform is expected to pay out: subtotal + tax + restaurantTip − discountMerchant − commission, each figure named, in the currency's smallest unit. */
export type ExpectedPayout = {
  __typename?: 'ExpectedPayout';
  /** subtotal × the rate, rounded half away from zero. */
  commission: Scalars['Int']['output'];
  /** The rate set for the platform (12.5 is 12.5 %). */
  commissionPercent: Scalars['Float']['output'];
  discountMerchant: Scalars['Int']['output'];
  payout: Scalars['Int']['output'];
  restaurantTip: Scalars['Int']['output'];
  subtotal: Scalars['Int']['output'];
  tax: Scalars['Int']['output'];
};

export type FlagEvaluation = {
  __typename?: 'FlagEvaluation';
  /** Whether the flag is on. */
  enabled: Scalars['Boolean']['output'];
  flagKey: Scalars['String']['output'];
  reason: EvaluationReason;
  value?: Maybe<Scalars['JSON']['output']>;
};

export type GenerateSsoSessionInput = {
  email: Scalars['String']['input'];
  fullName: Scalars['String']['input'];
  phoneNumber: Scalars['String']['input'];
  /** The provider_id the organization was created with. */
  providerOrgId: Scalars['String']['input'];
  providerOrgName?: InputMaybe<Scalars['String']['input']>;
  /** Defaults to team_member. */
  role?: InputMaybe<Role>;
};

export type GrantType =
  | 'client_credentials'
  | 'refresh_token';

export type IngestLocationEntry = {
  providerId: Scalars['String']['input'];
};

export type IngestLocationsInput = {
  locations: Array<IngestLocationEntry>;
  onboardingId: Scalars['ID']['input'];
};

export type IngestLocationsPayload = {
  __typename?: 'IngestLocationsPayload';
  locations: Array<IngestedLocation>;
};

export type IngestedLocation = {
  __typename?: 'IngestedLocation';
  id: Scalars['ID']['output'];
  providerId: Scalars['String']['output'];
};

export type InitializeOnboardingInput = {
  orgId: Scalars['ID']['input'];
  /** Where the browser returns with code and onboarding_id. */
  returnUrl: Scalars['String']['input'];
  /** The slug of a registered POS or DSP provider. */
  source: Scalars['String']['input'];
  type: OnboardingType;
};

export type InitializeOnboardingPayload = {
  __typename?: 'InitializeOnboardingPayload';
  onboarding: Onboarding;
};

export type ItemAvailabilityPayload = {
  __typename?: 'ItemAvailabilityPayload';
  unavailable: Array<OffSaleItem>;
};

/** A location of an organization. */
export type Location = {
  __typename?: 'Location';
  address: Address;
  /** Its busy spell now; null when not busy. */
  busy?: Maybe<Busy>;
  /** The current catalog (the latest version fetched from the POS), as a one-element list, or empty before the first fetch. */
  catalog: Array<CatalogVersion>;
  /** The days its latest valid catalog closes all day, from today (in its time zone) on, for the next 60 days. */
  closedDays: Array<ClosedDay>;
  /** When open: epoch ms it closes next, within a week (null when it stays open all week). Null when closed. */
  closesAt?: Maybe<Scalars['Float']['output']>;
  /** The approved DSP connections, oldest first. */
  dsps: Array<DspConnection>;
  id: Scalars['ID']['output'];
  /** The status of the POS onboarding the location goes through: active, or reauthorization_required once the merchant revoked the app at the POS (its orders wait until a new onboarding of the same account). */
  integrationStatus: Scalars['String']['output'];
  /** The menus of its latest valid catalog, each with its schedule. */
  menus: Array<LocationMenu>;
  name: Scalars['String']['output'];
  /** Its items and modifiers off sale now. */
  offSale: Array<OffSaleItem>;
  /** Whether its hours have it open now: some menu of its latest valid catalog open on its clock, no holiday closing it (a store's own pause is its DSP connection's pausedUntil). */
  openNow: Scalars['Boolean']['output'];
  /** When closed: epoch ms it opens next (null when no menu opens in the next 400 days). Null when open. */
  opensAt?: Maybe<Scalars['Float']['output']>;
  /** The kitchen’s usual minutes per order, as its POS lists it (1-240); null when it gives none. */
  prepTimeMinutes?: Maybe<Scalars['Int']['output']>;
  /** The POS's id of the location. */
  providerId: Scalars['String']['output'];
  source: Scalars['String']['output'];
  status: Scalars['String']['output'];
  /** The IANA time zone of the location's POS (UTC when it gives none). */
  timezone: Scalars['String']['output'];
};

/** A location’s busy spell as a set or an end left it. */
export type LocationBusy = {
  __typename?: 'LocationBusy';
  /** Minutes more per order; null when not busy. */
  extraPrepMinutes?: Maybe<Scalars['Int']['output']>;
  locationId: Scalars['ID']['output'];
  /** What each bound store quotes now: the base prep time plus the extra. */
  prepTimeMinutes?: Maybe<Scalars['Int']['output']>;
  /** Epoch ms the extra ends by itself; null: until ended. */
  untilMs?: Maybe<Scalars['Float']['output']>;
};

/** A menu of the location with its opening hours. */
export type LocationMenu = {
  __typename?: 'LocationMenu';
  name: Scalars['String']['output'];
  /** The POS's id of the menu (what menu assignment takes). */
  providerId: Scalars['String']['output'];
  /** Its hours on the location clock; null: open whenever the location is. */
  schedule?: Maybe<MenuSchedule>;
};

/** One publish of menus to a DSP connection. */
export type MenuPublish = {
  __typename?: 'MenuPublish';
  catalogVersion: Scalars['Int']['output'];
  completedAt?: Maybe<Scalars['Float']['output']>;
  /** Epoch milliseconds. */
  createdAt: Scalars['Float']['output'];
  error?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  menuProviderIds: Array<Scalars['String']['output']>;
  /** pending, published, failed (the DSP refused it or never answered) or invalid (not sent). */
  status: Scalars['String']['output'];
};

/** A menu's hours on its location's clock: each weekday's ranges, HH:MM-HH:MM (one ending at or before its start runs past midnight into the next day); null on a day it is closed. */
export type MenuSchedule = {
  __typename?: 'MenuSchedule';
  friday?: Maybe<Array<Scalars['String']['output']>>;
  monday?: Maybe<Array<Scalars['String']['output']>>;
  saturday?: Maybe<Array<Scalars['String']['output']>>;
  sunday?: Maybe<Array<Scalars['String']['output']>>;
  thursday?: Maybe<Array<Scalars['String']['output']>>;
  tuesday?: Maybe<Array<Scalars['String']['output']>>;
  wednesday?: Maybe<Array<Scalars['String']['output']>>;
};

/** An amount as the platforms carry it: a whole number of the currency's smallest unit (usd 2500 is $25.00, jpy 2500 is ¥2,500, kwd 2500 is 2.500 KD). */
export type Money = {
  __typename?: 'Money';
  /** Whole number of the currency's smallest unit (cents for usd). */
  amount: Scalars['Int']['output'];
  /** Lower-case ISO 4217 code. */
  currency: Scalars['String']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Add contexts to a flag's targeting (served its on variation). */
  addFlagContexts: TargetsPayload;
  /** Add contexts to a segment. */
  addSegmentContexts: TargetsPayload;
  assignMenus: AssignMenusPayload;
  bindDspLocations: BindDspLocationsPayload;
  completeOnboarding: Onboarding;
  /** Create an organization (merchant) with its first user. */
  createOrganization: CreateOrganizationPayload;
  /** A named token acting for one of your organizations with the given scopes. */
  createPartnerToken: PartnerTokenPayload;
  /** A new endpoint, with its signing secret (shown this once). */
  createWebhookEndpoint: WebhookEndpoint;
  /** Retire a location: its POS gets the disconnection notice and no further order events. */
  deleteLocation: DeleteLocationPayload;
  /** The endpoint stops receiving events; those still to send to it are dropped. */
  deleteWebhookEndpoint: DeletedWebhookEndpoint;
  /** End a location’s busy spell: each bound store’s DSP is told the base prep time again. */
  endLocationBusy: LocationBusy;
  generateSsoSession: SsoSessionPayload;
  ingestLocations: IngestLocationsPayload;
  initializeOnboarding: InitializeOnboardingPayload;
  /** Stop a location's DSP stores taking orders, until a time or until resumed; each store's DSP is told (location.pause). */
  pauseStores: PauseStoresPayload;
  /** Send a dead delivery again, from a fresh attempt count (same idempotency key). */
  redeliver: Delivery;
  /** Remove contexts from a flag's targeting. */
  removeFlagContexts: TargetsPayload;
  /** Remove contexts from a segment. */
  removeSegmentContexts: TargetsPayload;
  /** Erase a customer's data from the organization's orders (name, phone, loyalty id, delivery address): at once for final orders, when they end for open ones. */
  requestErasure: ErasurePayload;
  /** Send one event, or every event since a time, to the endpoint again (the same webhook-id). */
  resendWebhookEvents: ResentWebhookEvents;
  /** Let a location's DSP stores take orders again; each store's DSP is told (location.resume). */
  resumeStores: PauseStoresPayload;
  rotateWebhookEndpointSecret: RotatedWebhookSecret;
  /** Name the event provider (a dispatch company) that delivers the organization's merchant-delivered orders from now on; null: the deployment's. */
  setEventProvider: SetEventProviderPayload;
  /** Take items or modifiers off sale, or put them back; every bound store whose menus hold them is told (location.items.snooze or unsnooze). */
  setItemAvailability: ItemAvailabilityPayload;
  /** Keep a location taking orders, each quoted extra_prep_minutes more, until a time or until ended; each bound store’s DSP is told its prep time (location.prep_time.update). */
  setLocationBusy: LocationBusy;
  /** Set what a delivery platform keeps of the organization's orders: the daily statements' expected payout takes it off the platform's subtotal. */
  setPlatformCommission: PlatformCommission;
  /** Exchange client credentials or a refresh token for an access token. */
  token: TokenPayload;
  updateWebhookEndpoint: WebhookEndpoint;
};


export type MutationAddFlagContextsArgs = {
  input: ChangeContextsInput;
};


export type MutationAddSegmentContextsArgs = {
  input: ChangeContextsInput;
};


export type MutationAssignMenusArgs = {
  input: AssignMenusInput;
};


export type MutationBindDspLocationsArgs = {
  input: BindDspLocationsInput;
};


export type MutationCompleteOnboardingArgs = {
  input: CompleteOnboardingInput;
};


export type MutationCreateOrganizationArgs = {
  input: CreateOrganizationInput;
};


export type MutationCreatePartnerTokenArgs = {
  input: CreatePartnerTokenInput;
};


export type MutationCreateWebhookEndpointArgs = {
  input: CreateWebhookEndpointInput;
};


export type MutationDeleteLocationArgs = {
  input: DeleteLocationInput;
};


export type MutationDeleteWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};


export type MutationEndLocationBusyArgs = {
  input: EndLocationBusyInput;
};


export type MutationGenerateSsoSessionArgs = {
  input: GenerateSsoSessionInput;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
};


export type MutationIngestLocationsArgs = {
  input: IngestLocationsInput;
};


export type MutationInitializeOnboardingArgs = {
  input: InitializeOnboardingInput;
};


export type MutationPauseStoresArgs = {
  input: PauseStoresInput;
};


export type MutationRedeliverArgs = {
  id: Scalars['ID']['input'];
};


export type MutationRemoveFlagContextsArgs = {
  input: ChangeContextsInput;
};


export type MutationRemoveSegmentContextsArgs = {
  input: ChangeContextsInput;
};


export type MutationRequestErasureArgs = {
  input: RequestErasureInput;
};


export type MutationResendWebhookEventsArgs = {
  input: ResendWebhookEventsInput;
};


export type MutationResumeStoresArgs = {
  input: ResumeStoresInput;
};


export type MutationRotateWebhookEndpointSecretArgs = {
  id: Scalars['ID']['input'];
};


export type MutationSetEventProviderArgs = {
  input: SetEventProviderInput;
};


export type MutationSetItemAvailabilityArgs = {
  input: SetItemAvailabilityInput;
};


export type MutationSetLocationBusyArgs = {
  input: SetLocationBusyInput;
};


export type MutationSetPlatformCommissionArgs = {
  input: SetPlatformCommissionInput;
};


export type MutationTokenArgs = {
  input: TokenInput;
};


export type MutationUpdateWebhookEndpointArgs = {
  input: UpdateWebhookEndpointInput;
};

/** An item or modifier off sale. */
export type OffSaleItem = {
  __typename?: 'OffSaleItem';
  /** The catalog's provider_id of the item or modifier. */
  itemId: Scalars['String']['output'];
  /** When it is back on sale by itself (epoch ms); null: until put back. */
  untilMs?: Maybe<Scalars['Float']['output']>;
};

/** One OAuth integration attempt of an organization with a POS or DSP. */
export type Onboarding = {
  __typename?: 'Onboarding';
  /** Send the merchant here to start the OAuth authorization. */
  entryUrl: Scalars['String']['output'];
  id: Scalars['ID']['output'];
  integrationId?: Maybe<Scalars['String']['output']>;
  merchantId: Scalars['ID']['output'];
  orgId: Scalars['ID']['output'];
  partnerId: Scalars['ID']['output'];
  partnerOrgId: Scalars['String']['output'];
  returnUrl: Scalars['String']['output'];
  source: Scalars['String']['output'];
  /** pending until the code is exchanged, then active. */
  status: Scalars['String']['output'];
  type: OnboardingType;
};

export type OnboardingLocation = {
  __typename?: 'OnboardingLocation';
  address: Address;
  /** False once the location is ingested. */
  isEligibleToOnboard: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  providerId: Scalars['String']['output'];
  source: Scalars['String']['output'];
};

export type OnboardingLocationsPayload = {
  __typename?: 'OnboardingLocationsPayload';
  locations: Array<OnboardingLocation>;
};

export type OnboardingType =
  | 'dsp'
  | 'pos';

/** An order from a DSP. */
export type Order = {
  __typename?: 'Order';
  /** The order's money whole: each figure, the discounts and who funds them, the markup. */
  amounts: OrderAmounts;
  /** How a canceled order was canceled (merchant_canceled or dsp_canceled); null for any other. */
  cancellation?: Maybe<OrderCancellation>;
  /** The order's cash amount due (cash_amount_due); null when it gives none. */
  cashAmountDue?: Maybe<Money>;
  /** Epoch milliseconds. */
  createdAt: Scalars['Float']['output'];
  /** Lower-case ISO 4217 code: the order's (its location's when the DSP named none). */
  currency?: Maybe<Scalars['String']['output']>;
  /** The customer, as far as the caller may see: a dashboard's team members see a first name and initial, no number. */
  customer?: Maybe<OrderCustomer>;
  /** The order's delivery fee (delivery_fee); null when it gives none. */
  deliveryFee?: Maybe<Money>;
  /** The order's delivery fee tax (delivery_fee_tax); null when it gives none. */
  deliveryFeeTax?: Maybe<Money>;
  /** pending → pending_driver_confirmation → enroute_to_pickup → arrived_at_pickup → enroute_to_dropoff → arrived_at_dropoff → delivered, as its event provider reports it (forward only). */
  deliveryStatus: Scalars['String']['output'];
  /** The driver its event provider assigned. */
  driver?: Maybe<Driver>;
  /** The order's driver tip (driver_tip); null when it gives none. */
  driverTip?: Maybe<Money>;
  dspOrderId: Scalars['String']['output'];
  /** The number the DSP gave the customer for the order (dsp_order_number, e.g. #4821): what the customer says at the counter. */
  dspOrderNumber?: Maybe<Scalars['String']['output']>;
  dspSource: Scalars['String']['output'];
  dspStoreId: Scalars['String']['output'];
  /** When its event provider expects the driver at the customer, epoch milliseconds. */
  estimatedDropoffTime?: Maybe<Scalars['Float']['output']>;
  /** When it is to be ready, epoch ms: when its POS took it plus its prep time. */
  estimatedReadyTime?: Maybe<Scalars['Float']['output']>;
  /** The order as its partner events carry it (their `data`, in the wire's names): its ids and states, its money whole, its markup and a cancellation's party and reason. GET /v1/orders/{id} answers it. */
  eventData: Scalars['JSON']['output'];
  /** The event provider a merchant-delivered order was confirmed to: the one that delivers it. */
  eventProvider?: Maybe<Scalars['String']['output']>;
  /** The same as a sentence, naming the first offending item or modifier. */
  failureDetails?: Maybe<Scalars['String']['output']>;
  /** Why the order will not be made: location_not_found, restaurant_not_accepting_orders, item_not_found, item_unavailable, price_mismatch, invalid_cart, pos_rejected or pos_unreachable. */
  failureReason?: Maybe<Scalars['String']['output']>;
  fulfillmentType?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** The cart: each item with its nested modifiers, prices in the order’s currency. */
  items: Array<OrderLine>;
  locationId?: Maybe<Scalars['ID']['output']>;
  /** The order object as sent to the POS (its customer as far as the caller may see, as in `customer`). */
  order: Scalars['JSON']['output'];
  orgId?: Maybe<Scalars['ID']['output']>;
  posOrderId?: Maybe<Scalars['String']['output']>;
  /** The kitchen's minutes for it: its POS's answer, never below its location's quote (busy extra included). */
  prepTimeMinutes?: Maybe<Scalars['Int']['output']>;
  /** The order's restaurant tip (restaurant_tip); null when it gives none. */
  restaurantTip?: Maybe<Money>;
  /** in_progress, ready_for_pickup, out_for_delivery, completed; awaiting_confirmation (its POS decides later); or failed, merchant_canceled, dsp_canceled. */
  status: Scalars['String']['output'];
  /** The order's subtotal (subtotal); null when it gives none. */
  subtotal?: Maybe<Money>;
  /** The order's tax (tax); null when it gives none. */
  tax?: Maybe<Money>;
  /** The order's tax withheld by dsp (tax_withheld_by_dsp); null when it gives none. */
  taxWithheldByDsp?: Maybe<Money>;
  /** What happened to the order, oldest first: each of its recorded changes. */
  timeline: Array<OrderTimelineEntry>;
  /** The order's total (total); null when it gives none. */
  total?: Maybe<Money>;
  /** Epoch milliseconds. */
  updatedAt: Scalars['Float']['output'];
};

/** The order's money whole, in its currency: each figure null when the platform gave none. */
export type OrderAmounts = {
  __typename?: 'OrderAmounts';
  /** The delivery fee. */
  deliveryFee?: Maybe<Money>;
  /** The tax on the delivery fee. */
  deliveryFeeTax?: Maybe<Money>;
  /** At most 50, order- and item-level. */
  discounts: Array<OrderDiscount>;
  /** What the merchant pays of the discounts. */
  discountsByMerchant?: Maybe<Money>;
  /** What the platform pays of the discounts. */
  discountsByPlatform?: Maybe<Money>;
  /** The customer’s tip to the driver. */
  driverTip?: Maybe<Money>;
  /** What the platform priced the items above the catalog, prices times quantities. */
  markup?: Maybe<Money>;
  /** The customer’s tip to the store. */
  restaurantTip?: Maybe<Money>;
  /** What the items come to (discounts are not taken off it). */
  subtotal?: Maybe<Money>;
  /** Taxes not included in the prices. */
  tax?: Maybe<Money>;
  /** Tax the customer paid that the platform remits itself. */
  taxWithheldByDsp?: Maybe<Money>;
  /** subtotal + tax + taxWithheldByDsp + deliveryFee + deliveryFeeTax + restaurantTip + driverTip − discounts. */
  total?: Maybe<Money>;
};

/** Who canceled the order, why (when they said) and when. */
export type OrderCancellation = {
  __typename?: 'OrderCancellation';
  /** Epoch milliseconds. */
  at?: Maybe<Scalars['Float']['output']>;
  /** merchant or dsp. */
  by?: Maybe<Scalars['String']['output']>;
  /** The restaurant’s sentence about it. */
  details?: Maybe<Scalars['String']['output']>;
  /** The restaurant's: out_of_stock, kitchen_closed, too_busy, customer_request, other; the platform's: customer_request, courier_unavailable, fraud, delay, other. Null when it said none. */
  reason?: Maybe<Scalars['String']['output']>;
};

export type OrderCustomer = {
  __typename?: 'OrderCustomer';
  loyaltyId?: Maybe<Scalars['String']['output']>;
  maskedPhoneCode?: Maybe<Scalars['String']['output']>;
  name?: Maybe<Scalars['String']['output']>;
  phone?: Maybe<Scalars['String']['output']>;
};

/** A discount: its amount comes off the total (never off prices or the subtotal); who funds it, and the merchant’s part. */
export type OrderDiscount = {
  __typename?: 'OrderDiscount';
  amount?: Maybe<Money>;
  /** dsp, merchant or shared. */
  fundedBy?: Maybe<Scalars['String']['output']>;
  /** What the merchant pays of it. */
  merchantAmount?: Maybe<Money>;
  name?: Maybe<Scalars['String']['output']>;
  /** order, or item. */
  scope?: Maybe<Scalars['String']['output']>;
  /** Scope item: the item it is for. */
  serviceId?: Maybe<Scalars['String']['output']>;
};

export type OrderFailureCount = {
  __typename?: 'OrderFailureCount';
  orders: Scalars['Int']['output'];
  reason: Scalars['String']['output'];
};

export type OrderHourCount = {
  __typename?: 'OrderHourCount';
  dspSource: Scalars['String']['output'];
  /** Of those, the ones that failed (not taken). */
  failed: Scalars['Int']['output'];
  /** The hour’s start, epoch ms (from `from`, an hour at a time). */
  hour: Scalars['Float']['output'];
  /** Every order that came in, taken or failed. */
  orders: Scalars['Int']['output'];
};

/** An item of the order, or a modifier of one, as the DSP sent it. */
export type OrderLine = {
  __typename?: 'OrderLine';
  modifiers: Array<OrderLine>;
  name?: Maybe<Scalars['String']['output']>;
  /** Of one. */
  price?: Maybe<Money>;
  quantity?: Maybe<Scalars['Int']['output']>;
  /** The catalog provider_id. */
  serviceId?: Maybe<Scalars['String']['output']>;
  specialInstructions?: Maybe<Scalars['String']['output']>;
};

export type OrderStats = {
  __typename?: 'OrderStats';
  /** Orders per hour and DSP. */
  byHour: Array<OrderHourCount>;
  /** Failed orders by reason, most first. */
  failures: Array<OrderFailureCount>;
};

export type OrderStatus =
  | 'awaiting_confirmation'
  | 'completed'
  | 'dsp_canceled'
  | 'failed'
  | 'in_progress'
  | 'merchant_canceled'
  | 'out_for_delivery'
  | 'ready_for_pickup';

export type OrderTimelineEntry = {
  __typename?: 'OrderTimelineEntry';
  /** Epoch milliseconds. */
  at: Scalars['Float']['output'];
  deliveryStatus?: Maybe<Scalars['String']['output']>;
  driverName?: Maybe<Scalars['String']['output']>;
  failureReason?: Maybe<Scalars['String']['output']>;
  /** What the fields do not say, in a sentence: why a merchant-delivered order went to no event provider. */
  note?: Maybe<Scalars['String']['output']>;
  /** Its status after the change. */
  status?: Maybe<Scalars['String']['output']>;
  /** The change: order.created (placed), order.accepted (the POS took it), order.updated (its status, delivery or driver moved), order.failed. */
  what: Scalars['String']['output'];
};

export type OrdersPage = {
  __typename?: 'OrdersPage';
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor?: Maybe<Scalars['String']['output']>;
  orders: Array<Order>;
  /** How many orders the filters match in all, across every page. */
  totalCount: Scalars['Int']['output'];
};

export type Organization = {
  __typename?: 'Organization';
  /** Epoch milliseconds. */
  createdAt: Scalars['Float']['output'];
  /** The event provider it named for its merchant-delivered orders (setEventProvider); null: the deployment’s. */
  eventProvider?: Maybe<Scalars['String']['output']>;
  /** The registered event providers it may name (setEventProvider). */
  eventProviderChoices: Array<Scalars['String']['output']>;
  /** The event provider its merchant-delivered orders go to now: the one it named, else the deployment’s when exactly one is registered; null: none (the restaurant delivers them). */
  eventProviderInUse?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  /** The organization's onboardings, newest first (at most 50). */
  onboardings: Array<Onboarding>;
  providerId: Scalars['String']['output'];
  users: Array<User>;
};

/** Something of an organization changed: what, and (in the field of its kind) how it is now. */
export type OrganizationChange = {
  __typename?: 'OrganizationChange';
  /** For a delivery that died or was sent again: the delivery as it is now. */
  delivery?: Maybe<Delivery>;
  /** The location, onboarding or delivery that changed. */
  id: Scalars['ID']['output'];
  /** location, onboarding or delivery. */
  kind: Scalars['String']['output'];
  /** For a location that changed: the location as it is now (null once it is deleted). */
  location?: Maybe<Location>;
  /** For an onboarding that changed: the onboarding as it is now. */
  onboarding?: Maybe<Onboarding>;
  /** The change's event type (location.paused, menu.publish.succeeded, …); null for what only dashboards hear of. */
  type?: Maybe<Scalars['String']['output']>;
};

export type OrganizationLocationsPayload = {
  __typename?: 'OrganizationLocationsPayload';
  locations: Array<Location>;
};

export type PartnerTokenPayload = {
  __typename?: 'PartnerTokenPayload';
  /** Shown once; it is not stored. */
  accessToken: Scalars['String']['output'];
  /** Seconds. */
  expiresIn: Scalars['Int']['output'];
  id: Scalars['ID']['output'];
  orgId: Scalars['ID']['output'];
  scopes: Array<Scope>;
  tokenName: Scalars['String']['output'];
  tokenType: Scalars['String']['output'];
};

export type PauseStoresInput = {
  /** The DSP connections to pause; absent: every bound store of the location. */
  dspLocationIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
  /** When the pause ends by itself (epoch ms, at most 366 days ahead); absent: until resumed. */
  untilMs?: InputMaybe<Scalars['Float']['input']>;
};

export type PauseStoresPayload = {
  __typename?: 'PauseStoresPayload';
  locations: Array<PausedStore>;
};

/** A DSP store of the location, as a pause or resume left it. */
export type PausedStore = {
  __typename?: 'PausedStore';
  /** The DSP's own id of the store. */
  dspProviderId: Scalars['String']['output'];
  dspStoreName: Scalars['String']['output'];
  /** The DSP connection. */
  id: Scalars['ID']['output'];
  /** Epoch ms the pause ends; -1 until resumed; null when the store takes orders. */
  pausedUntil?: Maybe<Scalars['Float']['output']>;
  status: Scalars['String']['output'];
};

export type PlatformCommission = {
  __typename?: 'PlatformCommission';
  commissionPercent: Scalars['Float']['output'];
  orgId: Scalars['ID']['output'];
  source: Scalars['String']['output'];
};

/** A registered POS, delivery platform (DSP) or event provider, and what merchants call it. */
export type ProviderName = {
  __typename?: 'ProviderName';
  /** pos, dsp or event_provider. */
  kind: Scalars['String']['output'];
  /** Its display name ("Uber Eats"); its source when it was registered without one. */
  name: Scalars['String']['output'];
  /** Its slug: the `source` of onboardings, orders and webhook paths. */
  source: Scalars['String']['output'];
};

export type Query = {
  __typename?: 'Query';
  /** A location's end of day, one statement per local day from `from` to `to` (YYYY-MM-DD, 1 to 31 days, in the location's time zone): orders taken, failed and canceled per platform, and the taken ones summed. Dashboard sessions: owners, admins and managers. */
  dailyStatements: Array<DailyStatement>;
  /** Your deliveries, newest first: by default the dead ones, to redeliver. */
  deliveries: Array<Delivery>;
  evaluateFlag: FlagEvaluation;
  /** Your events, oldest first after the cursor: listed a second after they happen, kept 30 days. An organization's token sees its organization's only. */
  events: EventsPage;
  /** The location's items and modifiers off sale now. */
  itemAvailability: ItemAvailabilityPayload;
  /** The signed-in merchant user, when the caller is a dashboard session (its cookie); null for a token. */
  me?: Maybe<DashboardViewer>;
  onboarding: Onboarding;
  /** The locations of the onboarding's POS merchant. */
  onboardingLocations: OnboardingLocationsPayload;
  order: Order;
  /** An organization's orders between two times (at most 48 hours apart), counted per hour and DSP, and the failed ones by reason. */
  orderStats: OrderStats;
  /** An organization's orders, newest first. */
  orders: OrdersPage;
  organization: Organization;
  organizationLocations: OrganizationLocationsPayload;
  /** The registered providers by source, with the names merchants know them by (the dashboard shows these). */
  providers: Array<ProviderName>;
  /** Contexts across the flags and segments you own. */
  searchContexts: SearchContextsPayload;
  /** The endpoint's latest calls, newest first. */
  webhookAttempts: WebhookAttemptsPayload;
  webhookEndpoint: WebhookEndpoint;
  webhookEndpoints: WebhookEndpointsPayload;
};


export type QueryDailyStatementsArgs = {
  from: Scalars['String']['input'];
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
  to: Scalars['String']['input'];
};


export type QueryDeliveriesArgs = {
  first?: InputMaybe<Scalars['Int']['input']>;
  status?: InputMaybe<Scalars['String']['input']>;
};


export type QueryEvaluateFlagArgs = {
  flagKey: Scalars['String']['input'];
  key: Scalars['String']['input'];
  kind?: InputMaybe<Scalars['String']['input']>;
  partnerId: Scalars['ID']['input'];
};


export type QueryEventsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['Int']['input']>;
  orgId?: InputMaybe<Scalars['ID']['input']>;
  types?: InputMaybe<Array<Scalars['String']['input']>>;
};


export type QueryItemAvailabilityArgs = {
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
};


export type QueryOnboardingArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOnboardingLocationsArgs = {
  onboardingId: Scalars['ID']['input'];
};


export type QueryOrderArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOrderStatsArgs = {
  from: Scalars['Float']['input'];
  orgId: Scalars['ID']['input'];
  to: Scalars['Float']['input'];
};


export type QueryOrdersArgs = {
  after?: InputMaybe<Scalars['ID']['input']>;
  dspSource?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  from?: InputMaybe<Scalars['Float']['input']>;
  locationId?: InputMaybe<Scalars['ID']['input']>;
  orgId: Scalars['ID']['input'];
  status?: InputMaybe<OrderStatus>;
  to?: InputMaybe<Scalars['Float']['input']>;
};


export type QueryOrganizationArgs = {
  id: Scalars['ID']['input'];
};


export type QueryOrganizationLocationsArgs = {
  locationId?: InputMaybe<Scalars['ID']['input']>;
  orgId: Scalars['ID']['input'];
};


export type QuerySearchContextsArgs = {
  kind?: InputMaybe<Scalars['String']['input']>;
  limit?: InputMaybe<Scalars['String']['input']>;
  partnerId?: InputMaybe<Scalars['ID']['input']>;
  q?: InputMaybe<Scalars['String']['input']>;
};


export type QueryWebhookAttemptsArgs = {
  endpointId: Scalars['ID']['input'];
  limit?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryWebhookEndpointArgs = {
  id: Scalars['ID']['input'];
};

export type ReasonCount = {
  __typename?: 'ReasonCount';
  orders: Scalars['Int']['output'];
  /** The reason, as a code; null: none was given. */
  reason?: Maybe<Scalars['String']['output']>;
};

export type RequestErasureInput = {
  orgId: Scalars['ID']['input'];
  /** The customer’s phone, as the DSP sent it (its digits are compared). */
  phone?: InputMaybe<Scalars['String']['input']>;
  /** The customer’s loyalty id at the DSP. */
  providerLoyaltyId?: InputMaybe<Scalars['String']['input']>;
};

export type ResendWebhookEventsInput = {
  endpointId: Scalars['ID']['input'];
  /** This event again. */
  eventId?: InputMaybe<Scalars['String']['input']>;
  /** Every event since then (epoch ms) that the endpoint takes, oldest first, at most 10,000. */
  since?: InputMaybe<Scalars['Float']['input']>;
};

export type ResentWebhookEvents = {
  __typename?: 'ResentWebhookEvents';
  /** How many events go out again. */
  queued: Scalars['Int']['output'];
};

export type ResumeStoresInput = {
  /** The DSP connections to resume; absent: every bound store of the location. */
  dspLocationIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
};

export type Role =
  | 'admin'
  | 'custom'
  | 'manager'
  | 'owner'
  | 'team_member';

export type RotatedWebhookSecret = {
  __typename?: 'RotatedWebhookSecret';
  /** The new whsec_… secret; the old one signs beside it for 24 h. */
  secret: Scalars['String']['output'];
};

export type Scope =
  | 'billing'
  | 'legacy_onboarding'
  | 'onboarding'
  | 'sso'
  | 'user';

export type SearchContextsPayload = {
  __typename?: 'SearchContextsPayload';
  contexts: Array<SearchedContext>;
};

export type SearchedContext = {
  __typename?: 'SearchedContext';
  /** Flags targeting this context. */
  flags: Array<Scalars['String']['output']>;
  key: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  /** Segments including this context. */
  segments: Array<Scalars['String']['output']>;
};

export type SetEventProviderInput = {
  orgId: Scalars['ID']['input'];
  /** A registered event provider; null: the deployment’s, when exactly one is registered. */
  source?: InputMaybe<Scalars['String']['input']>;
};

export type SetEventProviderPayload = {
  __typename?: 'SetEventProviderPayload';
  eventProvider?: Maybe<Scalars['String']['output']>;
  orgId: Scalars['ID']['output'];
};

export type SetItemAvailabilityInput = {
  /** false: off sale; true: back on sale. */
  available: Scalars['Boolean']['input'];
  /** Items or modifiers of the location's catalog (at most 1,000). */
  itemIds: Array<Scalars['String']['input']>;
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
  /** Off sale until (epoch ms, at most 366 days ahead); absent: until put back. */
  untilMs?: InputMaybe<Scalars['Float']['input']>;
};

export type SetLocationBusyInput = {
  /** Whole minutes more per order, 5 to 120. */
  extraPrepMinutes: Scalars['Int']['input'];
  locationId: Scalars['ID']['input'];
  orgId: Scalars['ID']['input'];
  /** When the extra ends by itself (epoch ms, at most 366 days ahead); absent: until ended. */
  untilMs?: InputMaybe<Scalars['Float']['input']>;
};

export type SetPlatformCommissionInput = {
  /** From 0 to 100, at most two decimals (12.5 is 12.5 %). */
  commissionPercent: Scalars['Float']['input'];
  orgId: Scalars['ID']['input'];
  /** A registered delivery platform (DSP). */
  source: Scalars['String']['input'];
};

export type SsoSessionPayload = {
  __typename?: 'SsoSessionPayload';
  /** Single use, valid five minutes: open /v1/sso/login?token=… */
  ssoLoginToken: Scalars['String']['output'];
};

/** A day's taken orders summed: whole numbers of the currency's smallest unit (cents for usd). Failed, canceled and awaiting orders are counted, not summed. */
export type StatementFigures = {
  __typename?: 'StatementFigures';
  /** Delivery fees. */
  deliveryFee: Scalars['Int']['output'];
  /** Tax on the delivery fees. */
  deliveryFeeTax: Scalars['Int']['output'];
  /** Discounts the platform funds. */
  discountDsp: Scalars['Int']['output'];
  /** Discounts the merchant funds (its part of shared ones included). */
  discountMerchant: Scalars['Int']['output'];
  /** The customers' tips to drivers. */
  driverTip: Scalars['Int']['output'];
  /** What the items were priced above the catalog. */
  markup: Scalars['Int']['output'];
  /** The customers' tips to the store. */
  restaurantTip: Scalars['Int']['output'];
  /** What the items came to. */
  subtotal: Scalars['Int']['output'];
  /** Taxes not included in the prices. */
  tax: Scalars['Int']['output'];
  /** Tax the customers paid that the platform remits itself. */
  taxWithheldByDsp: Scalars['Int']['output'];
  /** What the platform's customers paid. */
  total: Scalars['Int']['output'];
};

/** One platform's day in one currency, or (source null) every platform's together. */
export type StatementLine = {
  __typename?: 'StatementLine';
  amounts: StatementFigures;
  /** Orders whose POS had not decided yet. */
  awaiting: Scalars['Int']['output'];
  /** Orders the platform canceled. */
  canceledByDsp: Scalars['Int']['output'];
  canceledByDspByReason: Array<ReasonCount>;
  /** Orders the restaurant canceled. */
  canceledByMerchant: Scalars['Int']['output'];
  canceledByMerchantByReason: Array<ReasonCount>;
  /** Lower-case ISO 4217; null for orders sent without one. */
  currency?: Maybe<Scalars['String']['output']>;
  failed: Scalars['Int']['output'];
  failedByReason: Array<ReasonCount>;
  /** The expected payout, when a commission is set for the platform (setPlatformCommission); null in a total. */
  payout?: Maybe<ExpectedPayout>;
  /** The platform (a DSP's source); null in a total. */
  source?: Maybe<Scalars['String']['output']>;
  /** Orders taken (on their way or completed): the ones summed. */
  taken: Scalars['Int']['output'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /** The onboarding, each time its status changes. */
  onboardingUpdated: Onboarding;
  /** An organization's order, each time it changes (optionally of one location). */
  orderUpdated: Order;
  /** An organization's onboardings, locations and DSP bindings, menu publishes and dead or redelivered deliveries, each time one changes (orders have orderUpdated). */
  organizationChanged: OrganizationChange;
};


export type SubscriptionOnboardingUpdatedArgs = {
  id: Scalars['ID']['input'];
};


export type SubscriptionOrderUpdatedArgs = {
  locationId?: InputMaybe<Scalars['ID']['input']>;
  orgId: Scalars['ID']['input'];
};


export type SubscriptionOrganizationChangedArgs = {
  orgId: Scalars['ID']['input'];
};

/** A flag's or segment's contexts after the change. */
export type TargetsPayload = {
  __typename?: 'TargetsPayload';
  flagKey?: Maybe<Scalars['String']['output']>;
  segmentKey?: Maybe<Scalars['String']['output']>;
  targets: Array<Context>;
};

export type TokenInput = {
  clientId: Scalars['String']['input'];
  clientSecret: Scalars['String']['input'];
  /** Expiry of the access token, seconds since the epoch; at most one hour ahead. */
  exp?: InputMaybe<Scalars['Float']['input']>;
  grantType: GrantType;
  refreshToken?: InputMaybe<Scalars['String']['input']>;
  scopes?: InputMaybe<Array<Scope>>;
};

export type TokenPayload = {
  __typename?: 'TokenPayload';
  accessToken: Scalars['String']['output'];
  /** Seconds. */
  expiresIn: Scalars['Int']['output'];
  refreshToken: Scalars['String']['output'];
  /** Seconds. */
  refreshTokenExpiresIn: Scalars['Int']['output'];
  scopes: Array<Scope>;
  tokenType: Scalars['String']['output'];
};

export type UpdateWebhookEndpointInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  /** Empty: all. */
  eventTypes?: InputMaybe<Array<Scalars['String']['input']>>;
  id: Scalars['ID']['input'];
  /** enabled (its waiting events go out) or disabled. */
  status?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
};

export type User = {
  __typename?: 'User';
  email: Scalars['String']['output'];
  firstName?: Maybe<Scalars['String']['output']>;
  fullName?: Maybe<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  lastName?: Maybe<Scalars['String']['output']>;
  role: Scalars['String']['output'];
};

export type VehicleInfo = {
  __typename?: 'VehicleInfo';
  color?: Maybe<Scalars['String']['output']>;
  licensePlate?: Maybe<Scalars['String']['output']>;
  make?: Maybe<Scalars['String']['output']>;
  model?: Maybe<Scalars['String']['output']>;
};

export type WebhookAttempt = {
  __typename?: 'WebhookAttempt';
  /** Epoch ms. */
  at: Scalars['Float']['output'];
  durationMs: Scalars['Int']['output'];
  error?: Maybe<Scalars['String']['output']>;
  eventId: Scalars['String']['output'];
  /** Null when the endpoint never answered. */
  statusCode?: Maybe<Scalars['Int']['output']>;
};

export type WebhookAttemptsPayload = {
  __typename?: 'WebhookAttemptsPayload';
  attempts: Array<WebhookAttempt>;
};

/** Where your events are POSTed, signed per Standard Webhooks. */
export type WebhookEndpoint = {
  __typename?: 'WebhookEndpoint';
  /** Epoch ms. */
  createdAt: Scalars['Float']['output'];
  description?: Maybe<Scalars['String']['output']>;
  disabledReason?: Maybe<Scalars['String']['output']>;
  /** The types it receives; empty: all. */
  eventTypes: Array<Scalars['String']['output']>;
  id: Scalars['ID']['output'];
  /** Only this organization's events, when set. */
  orgId?: Maybe<Scalars['String']['output']>;
  /** whsec_…: shown once, in the answer that makes the endpoint; rotateWebhookEndpointSecret gives a new one. */
  secret?: Maybe<Scalars['String']['output']>;
  /** enabled or disabled. */
  status: Scalars['String']['output'];
  url: Scalars['String']['output'];
};

export type WebhookEndpointsPayload = {
  __typename?: 'WebhookEndpointsPayload';
  endpoints: Array<WebhookEndpoint>;
};

export type DashboardViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardViewerQuery = { __typename?: 'Query', me?: { __typename?: 'DashboardViewer', canRedeliver: boolean, canControlStores: boolean, canChooseEventProvider: boolean, canReadEndOfDay: boolean, user: { __typename?: 'User', email: string, fullName?: string | null, role: string }, organization: { __typename?: 'Organization', id: string, name: string, createdAt: number } } | null, providers: Array<{ __typename?: 'ProviderName', source: string, kind: string, name: string }> };

export type DashboardLocationFragment = { __typename?: 'Location', id: string, name: string, source: string, timezone: string, openNow: boolean, opensAt?: number | null, closesAt?: number | null, prepTimeMinutes?: number | null, busy?: { __typename?: 'Busy', extraPrepMinutes: number, untilMs?: number | null } | null, closedDays: Array<{ __typename?: 'ClosedDay', date: string, name: string }>, offSale: Array<{ __typename?: 'OffSaleItem', itemId: string, untilMs?: number | null }>, catalog: Array<{ __typename?: 'CatalogVersion', currency?: string | null, defaultLanguage?: string | null, items: Array<{ __typename?: 'CatalogItem', providerId: string, name?: string | null }>, modifiers: Array<{ __typename?: 'CatalogModifier', providerId: string, name?: string | null }> }>, dsps: Array<{ __typename?: 'DspConnection', id: string, name: string, source: string, dspStoreId: string, status: string, pausedUntil?: number | null, dspStatus: string, publishes: Array<{ __typename?: 'MenuPublish', status: string, menuProviderIds: Array<string>, catalogVersion: number, error?: string | null, createdAt: number }> }> };

export type DashboardOnboardingFragment = { __typename?: 'Onboarding', id: string, type: OnboardingType, source: string, status: string };

export type DashboardDeliveryFragment = { __typename?: 'Delivery', id: string, kind: string, source: string, status: string, attempts: number, lastStatus?: number | null, lastError?: string | null, createdAt: number };

export type DashboardOverviewQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
}>;


export type DashboardOverviewQuery = { __typename?: 'Query', organization: { __typename?: 'Organization', onboardings: Array<{ __typename?: 'Onboarding', id: string, type: OnboardingType, source: string, status: string }> }, organizationLocations: { __typename?: 'OrganizationLocationsPayload', locations: Array<{ __typename?: 'Location', id: string, name: string, source: string, timezone: string, openNow: boolean, opensAt?: number | null, closesAt?: number | null, prepTimeMinutes?: number | null, busy?: { __typename?: 'Busy', extraPrepMinutes: number, untilMs?: number | null } | null, closedDays: Array<{ __typename?: 'ClosedDay', date: string, name: string }>, offSale: Array<{ __typename?: 'OffSaleItem', itemId: string, untilMs?: number | null }>, catalog: Array<{ __typename?: 'CatalogVersion', currency?: string | null, defaultLanguage?: string | null, items: Array<{ __typename?: 'CatalogItem', providerId: string, name?: string | null }>, modifiers: Array<{ __typename?: 'CatalogModifier', providerId: string, name?: string | null }> }>, dsps: Array<{ __typename?: 'DspConnection', id: string, name: string, source: string, dspStoreId: string, status: string, pausedUntil?: number | null, dspStatus: string, publishes: Array<{ __typename?: 'MenuPublish', status: string, menuProviderIds: Array<string>, catalogVersion: number, error?: string | null, createdAt: number }> }> }> } };

export type DashboardDeliveriesQueryVariables = Exact<{ [key: string]: never; }>;


export type DashboardDeliveriesQuery = { __typename?: 'Query', deliveries: Array<{ __typename?: 'Delivery', id: string, kind: string, source: string, status: string, attempts: number, lastStatus?: number | null, lastError?: string | null, createdAt: number }> };

export type DashboardOrderUpdatesSubscriptionVariables = Exact<{
  orgId: Scalars['ID']['input'];
}>;


export type DashboardOrderUpdatesSubscription = { __typename?: 'Subscription', orderUpdated: { __typename?: 'Order', id: string, dspOrderId: string, dspOrderNumber?: string | null, dspSource: string, status: string, deliveryStatus: string, fulfillmentType?: string | null, locationId?: string | null, failureReason?: string | null, failureDetails?: string | null, createdAt: number, updatedAt: number, prepTimeMinutes?: number | null, estimatedReadyTime?: number | null, customer?: { __typename?: 'OrderCustomer', name?: string | null } | null, driver?: { __typename?: 'Driver', name: string, vehicleInfo?: { __typename?: 'VehicleInfo', make?: string | null, model?: string | null, color?: string | null, licensePlate?: string | null } | null } | null, total?: { __typename?: 'Money', amount: number, currency: string } | null } };

export type DashboardChangesSubscriptionVariables = Exact<{
  orgId: Scalars['ID']['input'];
}>;


export type DashboardChangesSubscription = { __typename?: 'Subscription', organizationChanged: { __typename?: 'OrganizationChange', kind: string, id: string, location?: { __typename?: 'Location', id: string, name: string, source: string, timezone: string, openNow: boolean, opensAt?: number | null, closesAt?: number | null, prepTimeMinutes?: number | null, busy?: { __typename?: 'Busy', extraPrepMinutes: number, untilMs?: number | null } | null, closedDays: Array<{ __typename?: 'ClosedDay', date: string, name: string }>, offSale: Array<{ __typename?: 'OffSaleItem', itemId: string, untilMs?: number | null }>, catalog: Array<{ __typename?: 'CatalogVersion', currency?: string | null, defaultLanguage?: string | null, items: Array<{ __typename?: 'CatalogItem', providerId: string, name?: string | null }>, modifiers: Array<{ __typename?: 'CatalogModifier', providerId: string, name?: string | null }> }>, dsps: Array<{ __typename?: 'DspConnection', id: string, name: string, source: string, dspStoreId: string, status: string, pausedUntil?: number | null, dspStatus: string, publishes: Array<{ __typename?: 'MenuPublish', status: string, menuProviderIds: Array<string>, catalogVersion: number, error?: string | null, createdAt: number }> }> } | null, onboarding?: { __typename?: 'Onboarding', id: string, type: OnboardingType, source: string, status: string } | null, delivery?: { __typename?: 'Delivery', id: string, kind: string, source: string, status: string, attempts: number, lastStatus?: number | null, lastError?: string | null, createdAt: number } | null } };

export type DashboardRedeliverMutationVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DashboardRedeliverMutation = { __typename?: 'Mutation', redeliver: { __typename?: 'Delivery', id: string, status: string } };

export type DashboardStatsQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
  from: Scalars['Float']['input'];
  to: Scalars['Float']['input'];
}>;


export type DashboardStatsQuery = { __typename?: 'Query', orderStats: { __typename?: 'OrderStats', byHour: Array<{ __typename?: 'OrderHourCount', hour: number, dspSource: string, orders: number, failed: number }>, failures: Array<{ __typename?: 'OrderFailureCount', reason: string, orders: number }> } };

export type DashboardDispatchQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
}>;


export type DashboardDispatchQuery = { __typename?: 'Query', organization: { __typename?: 'Organization', eventProvider?: string | null, eventProviderInUse?: string | null, eventProviderChoices: Array<string> } };

export type DashboardSetEventProviderMutationVariables = Exact<{
  input: SetEventProviderInput;
}>;


export type DashboardSetEventProviderMutation = { __typename?: 'Mutation', setEventProvider: { __typename?: 'SetEventProviderPayload', eventProvider?: string | null } };

export type DashboardEndOfDayQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
  locationId: Scalars['ID']['input'];
  date: Scalars['String']['input'];
}>;


export type DashboardEndOfDayQuery = { __typename?: 'Query', dailyStatements: Array<{ __typename?: 'DailyStatement', date: string, timeZone: string, hours: number, platforms: Array<{ __typename?: 'StatementLine', source?: string | null, currency?: string | null, taken: number, awaiting: number, failed: number, canceledByMerchant: number, canceledByDsp: number, failedByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByMerchantByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByDspByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, amounts: { __typename?: 'StatementFigures', subtotal: number, tax: number, taxWithheldByDsp: number, deliveryFee: number, deliveryFeeTax: number, restaurantTip: number, driverTip: number, discountMerchant: number, discountDsp: number, markup: number, total: number }, payout?: { __typename?: 'ExpectedPayout', subtotal: number, tax: number, restaurantTip: number, discountMerchant: number, commissionPercent: number, commission: number, payout: number } | null }>, totals: Array<{ __typename?: 'StatementLine', source?: string | null, currency?: string | null, taken: number, awaiting: number, failed: number, canceledByMerchant: number, canceledByDsp: number, failedByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByMerchantByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByDspByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, amounts: { __typename?: 'StatementFigures', subtotal: number, tax: number, taxWithheldByDsp: number, deliveryFee: number, deliveryFeeTax: number, restaurantTip: number, driverTip: number, discountMerchant: number, discountDsp: number, markup: number, total: number }, payout?: { __typename?: 'ExpectedPayout', subtotal: number, tax: number, restaurantTip: number, discountMerchant: number, commissionPercent: number, commission: number, payout: number } | null }> }> };

export type DashboardStatementLineFragment = { __typename?: 'StatementLine', source?: string | null, currency?: string | null, taken: number, awaiting: number, failed: number, canceledByMerchant: number, canceledByDsp: number, failedByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByMerchantByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, canceledByDspByReason: Array<{ __typename?: 'ReasonCount', reason?: string | null, orders: number }>, amounts: { __typename?: 'StatementFigures', subtotal: number, tax: number, taxWithheldByDsp: number, deliveryFee: number, deliveryFeeTax: number, restaurantTip: number, driverTip: number, discountMerchant: number, discountDsp: number, markup: number, total: number }, payout?: { __typename?: 'ExpectedPayout', subtotal: number, tax: number, restaurantTip: number, discountMerchant: number, commissionPercent: number, commission: number, payout: number } | null };

export type DashboardOrderDetailQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type DashboardOrderDetailQuery = { __typename?: 'Query', order: { __typename?: 'Order', id: string, dspOrderNumber?: string | null, dspSource: string, dspStoreId: string, locationId?: string | null, status: string, deliveryStatus: string, fulfillmentType?: string | null, failureReason?: string | null, failureDetails?: string | null, order: any, createdAt: number, eventProvider?: string | null, estimatedDropoffTime?: number | null, estimatedReadyTime?: number | null, total?: { __typename?: 'Money', amount: number, currency: string } | null, amounts: { __typename?: 'OrderAmounts', subtotal?: { __typename?: 'Money', amount: number } | null, tax?: { __typename?: 'Money', amount: number } | null, taxWithheldByDsp?: { __typename?: 'Money', amount: number } | null, deliveryFee?: { __typename?: 'Money', amount: number } | null, deliveryFeeTax?: { __typename?: 'Money', amount: number } | null, restaurantTip?: { __typename?: 'Money', amount: number } | null, driverTip?: { __typename?: 'Money', amount: number } | null, markup?: { __typename?: 'Money', amount: number } | null, total?: { __typename?: 'Money', amount: number } | null, discounts: Array<{ __typename?: 'OrderDiscount', name?: string | null, fundedBy?: string | null, amount?: { __typename?: 'Money', amount: number } | null, merchantAmount?: { __typename?: 'Money', amount: number } | null }> }, cancellation?: { __typename?: 'OrderCancellation', by?: string | null, reason?: string | null, details?: string | null } | null, driver?: { __typename?: 'Driver', name: string, source?: string | null, phone?: { __typename?: 'DriverPhone', number: string, code?: string | null } | null, vehicleInfo?: { __typename?: 'VehicleInfo', make?: string | null, model?: string | null, color?: string | null, licensePlate?: string | null } | null } | null, customer?: { __typename?: 'OrderCustomer', name?: string | null, phone?: string | null, maskedPhoneCode?: string | null } | null, timeline: Array<{ __typename?: 'OrderTimelineEntry', at: number, what: string, status?: string | null, deliveryStatus?: string | null, failureReason?: string | null, driverName?: string | null, note?: string | null }> } };

export type DashboardOrderFragment = { __typename?: 'Order', id: string, dspOrderId: string, dspOrderNumber?: string | null, dspSource: string, status: string, deliveryStatus: string, fulfillmentType?: string | null, locationId?: string | null, failureReason?: string | null, failureDetails?: string | null, createdAt: number, updatedAt: number, prepTimeMinutes?: number | null, estimatedReadyTime?: number | null, customer?: { __typename?: 'OrderCustomer', name?: string | null } | null, driver?: { __typename?: 'Driver', name: string, vehicleInfo?: { __typename?: 'VehicleInfo', make?: string | null, model?: string | null, color?: string | null, licensePlate?: string | null } | null } | null, total?: { __typename?: 'Money', amount: number, currency: string } | null };

export type DashboardOrdersQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
  status?: InputMaybe<OrderStatus>;
  locationId?: InputMaybe<Scalars['ID']['input']>;
  dspSource?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['Float']['input']>;
  to?: InputMaybe<Scalars['Float']['input']>;
  after?: InputMaybe<Scalars['ID']['input']>;
}>;


export type DashboardOrdersQuery = { __typename?: 'Query', orders: { __typename?: 'OrdersPage', totalCount: number, nextCursor?: string | null, orders: Array<{ __typename?: 'Order', id: string, dspOrderId: string, dspOrderNumber?: string | null, dspSource: string, status: string, deliveryStatus: string, fulfillmentType?: string | null, locationId?: string | null, failureReason?: string | null, failureDetails?: string | null, createdAt: number, updatedAt: number, prepTimeMinutes?: number | null, estimatedReadyTime?: number | null, customer?: { __typename?: 'OrderCustomer', name?: string | null } | null, driver?: { __typename?: 'Driver', name: string, vehicleInfo?: { __typename?: 'VehicleInfo', make?: string | null, model?: string | null, color?: string | null, licensePlate?: string | null } | null } | null, total?: { __typename?: 'Money', amount: number, currency: string } | null }> } };

export type DashboardOrderCountQueryVariables = Exact<{
  orgId: Scalars['ID']['input'];
  status?: InputMaybe<OrderStatus>;
  locationId?: InputMaybe<Scalars['ID']['input']>;
  dspSource?: InputMaybe<Scalars['String']['input']>;
  from?: InputMaybe<Scalars['Float']['input']>;
  to?: InputMaybe<Scalars['Float']['input']>;
}>;


export type DashboardOrderCountQuery = { __typename?: 'Query', orders: { __typename?: 'OrdersPage', totalCount: number } };

export type DashboardPauseMutationVariables = Exact<{
  input: PauseStoresInput;
}>;


export type DashboardPauseMutation = { __typename?: 'Mutation', pauseStores: { __typename?: 'PauseStoresPayload', locations: Array<{ __typename?: 'PausedStore', id: string, pausedUntil?: number | null }> } };

export type DashboardResumeMutationVariables = Exact<{
  input: ResumeStoresInput;
}>;


export type DashboardResumeMutation = { __typename?: 'Mutation', resumeStores: { __typename?: 'PauseStoresPayload', locations: Array<{ __typename?: 'PausedStore', id: string, pausedUntil?: number | null }> } };

export type DashboardBusyMutationVariables = Exact<{
  input: SetLocationBusyInput;
}>;


export type DashboardBusyMutation = { __typename?: 'Mutation', setLocationBusy: { __typename?: 'LocationBusy', locationId: string, extraPrepMinutes?: number | null, untilMs?: number | null } };

export type DashboardEndBusyMutationVariables = Exact<{
  input: EndLocationBusyInput;
}>;


export type DashboardEndBusyMutation = { __typename?: 'Mutation', endLocationBusy: { __typename?: 'LocationBusy', locationId: string, extraPrepMinutes?: number | null } };

export type DashboardAvailabilityMutationVariables = Exact<{
  input: SetItemAvailabilityInput;
}>;


export type DashboardAvailabilityMutation = { __typename?: 'Mutation', setItemAvailability: { __typename?: 'ItemAvailabilityPayload', unavailable: Array<{ __typename?: 'OffSaleItem', itemId: string, untilMs?: number | null }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const DashboardLocationFragmentDoc = new TypedDocumentString(`
    fragment DashboardLocation on Location {
  id
  name
  source
  timezone
  openNow
  opensAt
  closesAt
  prepTimeMinutes
  busy {
    extraPrepMinutes
    untilMs
  }
  closedDays {
    date
    name
  }
  offSale {
    itemId
    untilMs
  }
  catalog {
    currency
    defaultLanguage
    items {
      providerId
      name
    }
    modifiers {
      providerId
      name
    }
  }
  dsps {
    id
    name
    source
    dspStoreId
    status
    pausedUntil
    dspStatus
    publishes(last: 1) {
      status
      menuProviderIds
      catalogVersion
      error
      createdAt
    }
  }
}
    `, {"fragmentName":"DashboardLocation"}) as unknown as TypedDocumentString<DashboardLocationFragment, unknown>;
export const DashboardOnboardingFragmentDoc = new TypedDocumentString(`
    fragment DashboardOnboarding on Onboarding {
  id
  type
  source
  status
}
    `, {"fragmentName":"DashboardOnboarding"}) as unknown as TypedDocumentString<DashboardOnboardingFragment, unknown>;
export const DashboardDeliveryFragmentDoc = new TypedDocumentString(`
    fragment DashboardDelivery on Delivery {
  id
  kind
  source
  status
  attempts
  lastStatus
  lastError
  createdAt
}
    `, {"fragmentName":"DashboardDelivery"}) as unknown as TypedDocumentString<DashboardDeliveryFragment, unknown>;
export const DashboardStatementLineFragmentDoc = new TypedDocumentString(`
    fragment DashboardStatementLine on StatementLine {
  source
  currency
  taken
  awaiting
  failed
  failedByReason {
    reason
    orders
  }
  canceledByMerchant
  canceledByMerchantByReason {
    reason
    orders
  }
  canceledByDsp
  canceledByDspByReason {
    reason
    orders
  }
  amounts {
    subtotal
    tax
    taxWithheldByDsp
    deliveryFee
    deliveryFeeTax
    restaurantTip
    driverTip
    discountMerchant
    discountDsp
    markup
    total
  }
  payout {
    subtotal
    tax
    restaurantTip
    discountMerchant
    commissionPercent
    commission
    payout
  }
}
    `, {"fragmentName":"DashboardStatementLine"}) as unknown as TypedDocumentString<DashboardStatementLineFragment, unknown>;
export const DashboardOrderFragmentDoc = new TypedDocumentString(`
    fragment DashboardOrder on Order {
  id
  dspOrderId
  dspOrderNumber
  dspSource
  status
  deliveryStatus
  fulfillmentType
  locationId
  failureReason
  failureDetails
  createdAt
  updatedAt
  customer {
    name
  }
  driver {
    name
    vehicleInfo {
      make
      model
      color
      licensePlate
    }
  }
  total {
    amount
    currency
  }
  prepTimeMinutes
  estimatedReadyTime
}
    `, {"fragmentName":"DashboardOrder"}) as unknown as TypedDocumentString<DashboardOrderFragment, unknown>;
export const DashboardViewerDocument = new TypedDocumentString(`
    query DashboardViewer {
  me {
    canRedeliver
    canControlStores
    canChooseEventProvider
    canReadEndOfDay
    user {
      email
      fullName
      role
    }
    organization {
      id
      name
      createdAt
    }
  }
  providers {
    source
    kind
    name
  }
}
    `) as unknown as TypedDocumentString<DashboardViewerQuery, DashboardViewerQueryVariables>;
export const DashboardOverviewDocument = new TypedDocumentString(`
    query DashboardOverview($orgId: ID!) {
  organization(id: $orgId) {
    onboardings {
      ...DashboardOnboarding
    }
  }
  organizationLocations(orgId: $orgId) {
    locations {
      ...DashboardLocation
    }
  }
}
    fragment DashboardLocation on Location {
  id
  name
  source
  timezone
  openNow
  opensAt
  closesAt
  prepTimeMinutes
  busy {
    extraPrepMinutes
    untilMs
  }
  closedDays {
    date
    name
  }
  offSale {
    itemId
    untilMs
  }
  catalog {
    currency
    defaultLanguage
    items {
      providerId
      name
    }
    modifiers {
      providerId
      name
    }
  }
  dsps {
    id
    name
    source
    dspStoreId
    status
    pausedUntil
    dspStatus
    publishes(last: 1) {
      status
      menuProviderIds
      catalogVersion
      error
      createdAt
    }
  }
}
fragment DashboardOnboarding on Onboarding {
  id
  type
  source
  status
}`) as unknown as TypedDocumentString<DashboardOverviewQuery, DashboardOverviewQueryVariables>;
export const DashboardDeliveriesDocument = new TypedDocumentString(`
    query DashboardDeliveries {
  deliveries(status: "dead", first: 50) {
    ...DashboardDelivery
  }
}
    fragment DashboardDelivery on Delivery {
  id
  kind
  source
  status
  attempts
  lastStatus
  lastError
  createdAt
}`) as unknown as TypedDocumentString<DashboardDeliveriesQuery, DashboardDeliveriesQueryVariables>;
export const DashboardOrderUpdatesDocument = new TypedDocumentString(`
    subscription DashboardOrderUpdates($orgId: ID!) {
  orderUpdated(orgId: $orgId) {
    ...DashboardOrder
  }
}
    fragment DashboardOrder on Order {
  id
  dspOrderId
  dspOrderNumber
  dspSource
  status
  deliveryStatus
  fulfillmentType
  locationId
  failureReason
  failureDetails
  createdAt
  updatedAt
  customer {
    name
  }
  driver {
    name
    vehicleInfo {
      make
      model
      color
      licensePlate
    }
  }
  total {
    amount
    currency
  }
  prepTimeMinutes
  estimatedReadyTime
}`) as unknown as TypedDocumentString<DashboardOrderUpdatesSubscription, DashboardOrderUpdatesSubscriptionVariables>;
export const DashboardChangesDocument = new TypedDocumentString(`
    subscription DashboardChanges($orgId: ID!) {
  organizationChanged(orgId: $orgId) {
    kind
    id
    location {
      ...DashboardLocation
    }
    onboarding {
      ...DashboardOnboarding
    }
    delivery {
      ...DashboardDelivery
    }
  }
}
    fragment DashboardLocation on Location {
  id
  name
  source
  timezone
  openNow
  opensAt
  closesAt
  prepTimeMinutes
  busy {
    extraPrepMinutes
    untilMs
  }
  closedDays {
    date
    name
  }
  offSale {
    itemId
    untilMs
  }
  catalog {
    currency
    defaultLanguage
    items {
      providerId
      name
    }
    modifiers {
      providerId
      name
    }
  }
  dsps {
    id
    name
    source
    dspStoreId
    status
    pausedUntil
    dspStatus
    publishes(last: 1) {
      status
      menuProviderIds
      catalogVersion
      error
      createdAt
    }
  }
}
fragment DashboardOnboarding on Onboarding {
  id
  type
  source
  status
}
fragment DashboardDelivery on Delivery {
  id
  kind
  source
  status
  attempts
  lastStatus
  lastError
  createdAt
}`) as unknown as TypedDocumentString<DashboardChangesSubscription, DashboardChangesSubscriptionVariables>;
export const DashboardRedeliverDocument = new TypedDocumentString(`
    mutation DashboardRedeliver($id: ID!) {
  redeliver(id: $id) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<DashboardRedeliverMutation, DashboardRedeliverMutationVariables>;
export const DashboardStatsDocument = new TypedDocumentString(`
    query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {
  orderStats(orgId: $orgId, from: $from, to: $to) {
    byHour {
      hour
      dspSource
      orders
      failed
    }
    failures {
      reason
      orders
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardStatsQuery, DashboardStatsQueryVariables>;
export const DashboardDispatchDocument = new TypedDocumentString(`
    query DashboardDispatch($orgId: ID!) {
  organization(id: $orgId) {
    eventProvider
    eventProviderInUse
    eventProviderChoices
  }
}
    `) as unknown as TypedDocumentString<DashboardDispatchQuery, DashboardDispatchQueryVariables>;
export const DashboardSetEventProviderDocument = new TypedDocumentString(`
    mutation DashboardSetEventProvider($input: SetEventProviderInput!) {
  setEventProvider(input: $input) {
    eventProvider
  }
}
    `) as unknown as TypedDocumentString<DashboardSetEventProviderMutation, DashboardSetEventProviderMutationVariables>;
export const DashboardEndOfDayDocument = new TypedDocumentString(`
    query DashboardEndOfDay($orgId: ID!, $locationId: ID!, $date: String!) {
  dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {
    date
    timeZone
    hours
    platforms {
      ...DashboardStatementLine
    }
    totals {
      ...DashboardStatementLine
    }
  }
}
    fragment DashboardStatementLine on StatementLine {
  source
  currency
  taken
  awaiting
  failed
  failedByReason {
    reason
    orders
  }
  canceledByMerchant
  canceledByMerchantByReason {
    reason
    orders
  }
  canceledByDsp
  canceledByDspByReason {
    reason
    orders
  }
  amounts {
    subtotal
    tax
    taxWithheldByDsp
    deliveryFee
    deliveryFeeTax
    restaurantTip
    driverTip
    discountMerchant
    discountDsp
    markup
    total
  }
  payout {
    subtotal
    tax
    restaurantTip
    discountMerchant
    commissionPercent
    commission
    payout
  }
}`) as unknown as TypedDocumentString<DashboardEndOfDayQuery, DashboardEndOfDayQueryVariables>;
export const DashboardOrderDetailDocument = new TypedDocumentString(`
    query DashboardOrderDetail($id: ID!) {
  order(id: $id) {
    id
    dspOrderNumber
    dspSource
    dspStoreId
    locationId
    status
    deliveryStatus
    fulfillmentType
    failureReason
    failureDetails
    order
    createdAt
    total {
      amount
      currency
    }
    amounts {
      subtotal {
        amount
      }
      tax {
        amount
      }
      taxWithheldByDsp {
        amount
      }
      deliveryFee {
        amount
      }
      deliveryFeeTax {
        amount
      }
      restaurantTip {
        amount
      }
      driverTip {
        amount
      }
      markup {
        amount
      }
      total {
        amount
      }
      discounts {
        name
        amount {
          amount
        }
        fundedBy
        merchantAmount {
          amount
        }
      }
    }
    cancellation {
      by
      reason
      details
    }
    eventProvider
    estimatedDropoffTime
    estimatedReadyTime
    driver {
      name
      source
      phone {
        number
        code
      }
      vehicleInfo {
        make
        model
        color
        licensePlate
      }
    }
    customer {
      name
      phone
      maskedPhoneCode
    }
    timeline {
      at
      what
      status
      deliveryStatus
      failureReason
      driverName
      note
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardOrderDetailQuery, DashboardOrderDetailQueryVariables>;
export const DashboardOrdersDocument = new TypedDocumentString(`
    query DashboardOrders($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float, $after: ID) {
  orders(
    orgId: $orgId
    status: $status
    locationId: $locationId
    dspSource: $dspSource
    from: $from
    to: $to
    first: 50
    after: $after
  ) {
    totalCount
    nextCursor
    orders {
      id
      dspOrderId
      dspOrderNumber
      dspSource
      status
      deliveryStatus
      fulfillmentType
      locationId
      failureReason
      failureDetails
      createdAt
      updatedAt
      customer {
        name
      }
      driver {
        name
        vehicleInfo {
          make
          model
          color
          licensePlate
        }
      }
      total {
        amount
        currency
      }
      prepTimeMinutes
      estimatedReadyTime
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardOrdersQuery, DashboardOrdersQueryVariables>;
export const DashboardOrderCountDocument = new TypedDocumentString(`
    query DashboardOrderCount($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float) {
  orders(
    orgId: $orgId
    status: $status
    locationId: $locationId
    dspSource: $dspSource
    from: $from
    to: $to
    first: 1
  ) {
    totalCount
  }
}
    `) as unknown as TypedDocumentString<DashboardOrderCountQuery, DashboardOrderCountQueryVariables>;
export const DashboardPauseDocument = new TypedDocumentString(`
    mutation DashboardPause($input: PauseStoresInput!) {
  pauseStores(input: $input) {
    locations {
      id
      pausedUntil
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardPauseMutation, DashboardPauseMutationVariables>;
export const DashboardResumeDocument = new TypedDocumentString(`
    mutation DashboardResume($input: ResumeStoresInput!) {
  resumeStores(input: $input) {
    locations {
      id
      pausedUntil
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardResumeMutation, DashboardResumeMutationVariables>;
export const DashboardBusyDocument = new TypedDocumentString(`
    mutation DashboardBusy($input: SetLocationBusyInput!) {
  setLocationBusy(input: $input) {
    locationId
    extraPrepMinutes
    untilMs
  }
}
    `) as unknown as TypedDocumentString<DashboardBusyMutation, DashboardBusyMutationVariables>;
export const DashboardEndBusyDocument = new TypedDocumentString(`
    mutation DashboardEndBusy($input: EndLocationBusyInput!) {
  endLocationBusy(input: $input) {
    locationId
    extraPrepMinutes
  }
}
    `) as unknown as TypedDocumentString<DashboardEndBusyMutation, DashboardEndBusyMutationVariables>;
export const DashboardAvailabilityDocument = new TypedDocumentString(`
    mutation DashboardAvailability($input: SetItemAvailabilityInput!) {
  setItemAvailability(input: $input) {
    unavailable {
      itemId
      untilMs
    }
  }
}
    `) as unknown as TypedDocumentString<DashboardAvailabilityMutation, DashboardAvailabilityMutationVariables>;