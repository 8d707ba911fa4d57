/**
 * Reference data the generator draws from. Cities, states and ZIP codes are real so that maps,
 * filters and state-license logic in user flows behave as with production data; facility,
 * client and people names are invented, and every phone number is in the fictional 555-01xx range.
 */

export interface City {
	city: string;
	state: string;
	zip: string;
	areaCode: string;
}

export const CITIES: readonly City[] = [
	{ city: 'Houston', state: 'TX', zip: '77030', areaCode: '713' },
	{ city: 'Dallas', state: 'TX', zip: '75390', areaCode: '214' },
	{ city: 'San Antonio', state: 'TX', zip: '78229', areaCode: '210' },
	{ city: 'Austin', state: 'TX', zip: '78701', areaCode: '512' },
	{ city: 'Phoenix', state: 'AZ', zip: '85006', areaCode: '602' },
	{ city: 'Tucson', state: 'AZ', zip: '85719', areaCode: '520' },
	{ city: 'Denver', state: 'CO', zip: '80218', areaCode: '303' },
	{ city: 'Seattle', state: 'WA', zip: '98104', areaCode: '206' },
	{ city: 'Portland', state: 'OR', zip: '97239', areaCode: '503' },
	{ city: 'Sacramento', state: 'CA', zip: '95817', areaCode: '916' },
	{ city: 'Los Angeles', state: 'CA', zip: '90033', areaCode: '323' },
	{ city: 'San Diego', state: 'CA', zip: '92103', areaCode: '619' },
	{ city: 'Fresno', state: 'CA', zip: '93701', areaCode: '559' },
	{ city: 'Las Vegas', state: 'NV', zip: '89102', areaCode: '702' },
	{ city: 'Salt Lake City', state: 'UT', zip: '84132', areaCode: '801' },
	{ city: 'Albuquerque', state: 'NM', zip: '87106', areaCode: '505' },
	{ city: 'Oklahoma City', state: 'OK', zip: '73104', areaCode: '405' },
	{ city: 'Kansas City', state: 'MO', zip: '64108', areaCode: '816' },
	{ city: 'St. Louis', state: 'MO', zip: '63110', areaCode: '314' },
	{ city: 'Minneapolis', state: 'MN', zip: '55415', areaCode: '612' },
	{ city: 'Chicago', state: 'IL', zip: '60612', areaCode: '312' },
	{ city: 'Indianapolis', state: 'IN', zip: '46202', areaCode: '317' },
	{ city: 'Columbus', state: 'OH', zip: '43210', areaCode: '614' },
	{ city: 'Cleveland', state: 'OH', zip: '44106', areaCode: '216' },
	{ city: 'Detroit', state: 'MI', zip: '48201', areaCode: '313' },
	{ city: 'Milwaukee', state: 'WI', zip: '53226', areaCode: '414' },
	{ city: 'Nashville', state: 'TN', zip: '37232', areaCode: '615' },
	{ city: 'Memphis', state: 'TN', zip: '38103', areaCode: '901' },
	{ city: 'Louisville', state: 'KY', zip: '40202', areaCode: '502' },
	{ city: 'Atlanta', state: 'GA', zip: '30303', areaCode: '404' },
	{ city: 'Charlotte', state: 'NC', zip: '28203', areaCode: '704' },
	{ city: 'Raleigh', state: 'NC', zip: '27610', areaCode: '919' },
	{ city: 'Richmond', state: 'VA', zip: '23298', areaCode: '804' },
	{ city: 'Baltimore', state: 'MD', zip: '21287', areaCode: '410' },
	{ city: 'Philadelphia', state: 'PA', zip: '19104', areaCode: '215' },
	{ city: 'Pittsburgh', state: 'PA', zip: '15213', areaCode: '412' },
	{ city: 'Boston', state: 'MA', zip: '02114', areaCode: '617' },
	{ city: 'Hartford', state: 'CT', zip: '06102', areaCode: '860' },
	{ city: 'Newark', state: 'NJ', zip: '07112', areaCode: '973' },
	{ city: 'New York', state: 'NY', zip: '10029', areaCode: '212' },
	{ city: 'Miami', state: 'FL', zip: '33136', areaCode: '305' },
	{ city: 'Tampa', state: 'FL', zip: '33606', areaCode: '813' },
	{ city: 'Orlando', state: 'FL', zip: '32806', areaCode: '407' },
	{ city: 'Jacksonville', state: 'FL', zip: '32209', areaCode: '904' },
	{ city: 'New Orleans', state: 'LA', zip: '70112', areaCode: '504' },
	{ city: 'Birmingham', state: 'AL', zip: '35233', areaCode: '205' },
	{ city: 'Little Rock', state: 'AR', zip: '72205', areaCode: '501' },
	{ city: 'Omaha', state: 'NE', zip: '68198', areaCode: '402' },
	{ city: 'Boise', state: 'ID', zip: '83712', areaCode: '208' },
	{ city: 'Anchorage', state: 'AK', zip: '99508', areaCode: '907' },
	{ city: 'Honolulu', state: 'HI', zip: '96813', areaCode: '808' },
];

/** Nurse Licensure Compact members (multistate licenses honoured). */
export const COMPACT_STATES: ReadonlySet<string> = new Set([
	'AL',
	'AZ',
	'AR',
	'CO',
	'DE',
	'FL',
	'GA',
	'ID',
	'IN',
	'IA',
	'KS',
	'KY',
	'LA',
	'ME',
	'MD',
	'MS',
	'MO',
	'MT',
	'NE',
	'NH',
	'NJ',
	'NM',
	'NC',
	'ND',
	'OH',
	'OK',
	'PA',
	'SC',
	'SD',
	'TN',
	'TX',
	'UT',
	'VT',
	'VA',
	'WA',
	'WV',
	'WI',
	'WY',
	'GU',
	'VI',
]);

export interface CertificationInfo {
	Code: number;
	Name: string;
	/** The service allows null; a few are seeded so, to exercise consumers. */
	Description: string | null;
}

export const CERTIFICATIONS: Readonly<Record<string, CertificationInfo>> = {
	BLS: { Code: 101, Name: 'BLS', Description: 'Basic Life Support (American Heart Association)' },
	ACLS: {
		Code: 102,
		Name: 'ACLS',
		Description: 'Advanced Cardiovascular Life Support (American Heart Association)',
	},
	PALS: { Code: 103, Name: 'PALS', Description: 'Pediatric Advanced Life Support' },
	NRP: { Code: 104, Name: 'NRP', Description: 'Neonatal Resuscitation Program' },
	TNCC: { Code: 105, Name: 'TNCC', Description: 'Trauma Nursing Core Course' },
	CCRN: { Code: 106, Name: 'CCRN', Description: 'Critical Care Registered Nurse (AACN)' },
	NIHSS: { Code: 107, Name: 'NIHSS', Description: 'NIH Stroke Scale' },
	CPI: { Code: 108, Name: 'CPI', Description: 'Crisis Prevention Intervention' },
	STABLE: {
		Code: 109,
		Name: 'S.T.A.B.L.E.',
		Description: 'Neonatal post-resuscitation stabilization',
	},
	EFM: { Code: 110, Name: 'AWHONN EFM', Description: 'Intermediate Fetal Heart Monitoring' },
	RRT: { Code: 111, Name: 'RRT', Description: 'Registered Respiratory Therapist (NBRC)' },
	CST: { Code: 112, Name: 'CST', Description: 'Certified Surgical Technologist (NBSTSA)' },
	ARRT: { Code: 113, Name: 'ARRT', Description: 'American Registry of Radiologic Technologists' },
	ASCP: { Code: 114, Name: 'ASCP', Description: 'American Society for Clinical Pathology' },
	CPR: { Code: 115, Name: 'CPR', Description: null },
};

export interface Profession {
	name: string;
	title: string;
	weight: number;
	specialties: readonly string[];
	/** Nursing professions hold a state license that the compact can cover. */
	nursing: boolean;
	locums: boolean;
	rate: { unit: 'wk' | 'hr' | 'day'; min: number; max: number };
	certifications: readonly string[];
}

export const PROFESSIONS: readonly Profession[] = [
	{
		name: 'RN',
		title: 'Registered Nurse',
		weight: 55,
		nursing: true,
		locums: false,
		specialties: [
			'ICU',
			'ED',
			'Med-Surg',
			'L&D',
			'OR',
			'PACU',
			'Telemetry',
			'NICU',
			'PICU',
			'Step-Down',
			'Oncology',
			'Cath Lab',
			'Psych',
			'Dialysis',
			'Mother-Baby',
		],
		rate: { unit: 'wk', min: 1900, max: 3600 },
		certifications: ['BLS'],
	},
	{
		name: 'LPN',
		title: 'Licensed Practical Nurse',
		weight: 10,
		nursing: true,
		locums: false,
		specialties: ['Long Term Care', 'Med-Surg', 'Rehab', 'Clinic', 'Corrections'],
		rate: { unit: 'wk', min: 1250, max: 1950 },
		certifications: ['BLS'],
	},
	{
		name: 'CNA',
		title: 'Certified Nursing Assistant',
		weight: 8,
		nursing: false,
		locums: false,
		specialties: ['Long Term Care', 'Med-Surg', 'Rehab', 'Behavioral Health'],
		rate: { unit: 'wk', min: 850, max: 1350 },
		certifications: ['CPR'],
	},
	{
		name: 'Respiratory Therapist',
		title: 'Respiratory Therapist',
		weight: 8,
		nursing: false,
		locums: false,
		specialties: ['Adult Critical Care', 'NICU', 'Pulmonary Rehab'],
		rate: { unit: 'wk', min: 1750, max: 2700 },
		certifications: ['BLS', 'ACLS', 'RRT'],
	},
	{
		name: 'Surgical Technologist',
		title: 'Surgical Technologist',
		weight: 6,
		nursing: false,
		locums: false,
		specialties: ['OR', 'CVOR', 'L&D', 'Sterile Processing'],
		rate: { unit: 'wk', min: 1600, max: 2400 },
		certifications: ['BLS', 'CST'],
	},
	{
		name: 'Radiologic Technologist',
		title: 'Radiologic Technologist',
		weight: 4,
		nursing: false,
		locums: false,
		specialties: ['X-Ray', 'CT', 'MRI', 'Interventional Radiology'],
		rate: { unit: 'wk', min: 1800, max: 2900 },
		certifications: ['BLS', 'ARRT'],
	},
	{
		name: 'Physical Therapist',
		title: 'Physical Therapist',
		weight: 3,
		nursing: false,
		locums: false,
		specialties: ['Acute Care', 'Outpatient', 'Skilled Nursing'],
		rate: { unit: 'wk', min: 1900, max: 2600 },
		certifications: ['BLS'],
	},
	{
		name: 'Occupational Therapist',
		title: 'Occupational Therapist',
		weight: 2,
		nursing: false,
		locums: false,
		specialties: ['Acute Care', 'Outpatient', 'Skilled Nursing'],
		rate: { unit: 'wk', min: 1850, max: 2500 },
		certifications: ['BLS'],
	},
	{
		name: 'Medical Laboratory Scientist',
		title: 'Medical Laboratory Scientist',
		weight: 2,
		nursing: false,
		locums: false,
		specialties: ['Core Lab', 'Microbiology', 'Blood Bank'],
		rate: { unit: 'wk', min: 1700, max: 2500 },
		certifications: ['ASCP'],
	},
	{
		name: 'Physician',
		title: 'Physician',
		weight: 1.5,
		nursing: false,
		locums: true,
		specialties: ['Hospitalist', 'Emergency Medicine', 'Anesthesiology'],
		rate: { unit: 'day', min: 1600, max: 2800 },
		certifications: ['BLS', 'ACLS'],
	},
	{
		name: 'CRNA',
		title: 'Certified Registered Nurse Anesthetist',
		weight: 1,
		nursing: true,
		locums: true,
		specialties: ['Anesthesia'],
		rate: { unit: 'hr', min: 185, max: 260 },
		certifications: ['BLS', 'ACLS', 'PALS'],
	},
];

/** Extra certifications a unit asks of its nurses. */
export const SPECIALTY_CERTIFICATIONS: Readonly<Record<string, readonly string[]>> = {
	ICU: ['ACLS', 'NIHSS', 'CCRN'],
	ED: ['ACLS', 'PALS', 'TNCC'],
	'L&D': ['ACLS', 'NRP', 'EFM'],
	NICU: ['NRP', 'STABLE'],
	PICU: ['PALS'],
	PACU: ['ACLS', 'PALS'],
	Telemetry: ['ACLS'],
	'Step-Down': ['ACLS', 'NIHSS'],
	'Cath Lab': ['ACLS'],
	OR: ['ACLS'],
	Psych: ['CPI'],
	'Behavioral Health': ['CPI'],
	'Mother-Baby': ['NRP'],
};

export const UNIT_NAMES: Readonly<Record<string, readonly string[]>> = {
	ICU: ['MICU', 'SICU', 'CVICU', 'Neuro ICU'],
	ED: ['Emergency Department', 'Pediatric ED', 'Level I Trauma ED'],
	'L&D': ['Labor & Delivery', "Women's Pavilion L&D"],
	OR: ['Main OR', 'Ambulatory Surgery'],
	CVOR: ['Cardiovascular OR'],
};

export interface JobTypeInfo {
	label: string;
	code: number;
}

export const JOB_TYPES: ReadonlyArray<readonly [JobTypeInfo, number]> = [
	[{ label: 'Travel', code: 1 }, 60],
	[{ label: 'Local Contract', code: 2 }, 15],
	[{ label: 'Per Diem', code: 3 }, 8],
	[{ label: 'Contract to Hire', code: 4 }, 7],
	[{ label: 'Permanent', code: 5 }, 5],
];

export interface ShiftPattern {
	ShiftDescription: string;
	ShiftIdentifier: string;
	ShiftStart: string;
	ShiftEnd: string;
	ShiftHours: number | null;
	short: string;
}

export const JOB_SHIFTS: ReadonlyArray<readonly [ShiftPattern, number]> = [
	[
		{
			ShiftDescription: '3x12 Days 07:00-19:30',
			ShiftIdentifier: 'D12',
			ShiftStart: '07:00',
			ShiftEnd: '19:30',
			ShiftHours: 12,
			short: 'Days',
		},
		35,
	],
	[
		{
			ShiftDescription: '3x12 Nights 19:00-07:30',
			ShiftIdentifier: 'N12',
			ShiftStart: '19:00',
			ShiftEnd: '07:30',
			ShiftHours: 12,
			short: 'Nights',
		},
		35,
	],
	[
		{
			ShiftDescription: '5x8 Days 07:00-15:30',
			ShiftIdentifier: 'D8',
			ShiftStart: '07:00',
			ShiftEnd: '15:30',
			ShiftHours: 8,
			short: 'Days',
		},
		10,
	],
	[
		{
			ShiftDescription: '5x8 Evenings 15:00-23:30',
			ShiftIdentifier: 'E8',
			ShiftStart: '15:00',
			ShiftEnd: '23:30',
			ShiftHours: 8,
			short: 'Evenings',
		},
		7,
	],
	[
		{
			ShiftDescription: '4x10 Days 07:00-17:30',
			ShiftIdentifier: 'D10',
			ShiftStart: '07:00',
			ShiftEnd: '17:30',
			ShiftHours: 10,
			short: 'Days',
		},
		6,
	],
	[
		{
			ShiftDescription: 'Rotating days and nights',
			ShiftIdentifier: 'ROT',
			ShiftStart: 'Varies',
			ShiftEnd: 'Varies',
			ShiftHours: null,
			short: 'Rotating',
		},
		7,
	],
];

export const CLIENTS: ReadonlyArray<{ number: number; name: string }> = [
	{ number: 1001, name: 'Meridian Health System' },
	{ number: 1002, name: 'Bluewater Health' },
	{ number: 1003, name: 'Pinnacle Care Network' },
	{ number: 1004, name: 'Keystone Health Alliance' },
	{ number: 1005, name: 'Great Plains Health' },
	{ number: 1006, name: 'Evergreen Health Network' },
	{ number: 1007, name: 'Magnolia Health System' },
	{ number: 1008, name: 'Sunbelt Medical Group' },
	{ number: 1009, name: 'Heartland Regional Health' },
	{ number: 1010, name: 'Lakeshore Health Partners' },
];

export const FACILITY_PREFIXES = [
	"St. Luke's",
	'Mercy',
	'Providence',
	'Memorial',
	'Baptist',
	'Methodist',
	'Good Samaritan',
	'Sacred Heart',
	'Presbyterian',
	'University',
	'Riverside',
	'Lakeside',
	'Northside',
	'Valley',
	"Children's",
] as const;
export const FACILITY_SUFFIXES = [
	'Medical Center',
	'Hospital',
	'Regional Medical Center',
	'General Hospital',
	'Health Center',
] as const;
export const FACILITY_DESCRIPTIONS = [
	'Level I trauma center with 600 licensed beds',
	'Level II trauma center, Magnet designated',
	'325-bed acute care hospital',
	'Community hospital with 180 beds',
	'Academic medical center and teaching hospital',
	'Critical access hospital serving a rural region',
	'Comprehensive stroke center with 450 beds',
	'Long-term acute care hospital',
] as const;
export const STREETS = [
	'Medical Center Dr',
	'Main St',
	'Hospital Blvd',
	'University Ave',
	'Health Park Way',
	'Oak St',
	'Park Ave',
	'Lakeshore Dr',
	'Memorial Pkwy',
	'Fannin St',
	'Wellness Way',
	'Broadway',
] as const;

export const FIRST_NAMES = [
	'Maria',
	'James',
	'Aisha',
	'Robert',
	'Linh',
	'Michael',
	'Priya',
	'David',
	'Sofia',
	'Daniel',
	'Grace',
	'Carlos',
	'Emily',
	'Kwame',
	'Hannah',
	'Jose',
	'Olivia',
	'Tyrone',
	'Mei',
	'Anthony',
	'Fatima',
	'Kevin',
	'Rachel',
	'Luis',
	'Jasmine',
	'Brian',
	'Ngozi',
	'Eric',
	'Ashley',
	'Omar',
	'Megan',
	'Andre',
	'Yuki',
	'Samantha',
	'Rafael',
	'Teresa',
] as const;
export const LAST_NAMES = [
	'Garcia',
	'Johnson',
	'Nguyen',
	'Smith',
	'Patel',
	'Williams',
	'Rodriguez',
	'Brown',
	'Kim',
	'Jones',
	'Martinez',
	'Davis',
	'Okafor',
	'Miller',
	'Hernandez',
	'Wilson',
	'Lopez',
	'Anderson',
	'Chen',
	'Thomas',
	'Ali',
	'Taylor',
	'Moore',
	'Jackson',
	'Singh',
	'White',
	'Harris',
	'Clark',
	'Lewis',
	'Walker',
	'Young',
	'Allen',
] as const;

export const ON_CALL = [
	null,
	'No call',
	'Occasional call, $10/hr standby',
	'Call 1 weekend per 6 weeks',
	'Mandatory call rotation',
] as const;
export const WEEKENDS = [
	null,
	'Every other weekend',
	'Every third weekend',
	'No weekends',
	'1 weekend per 4-week schedule',
] as const;
export const DURATIONS_WEEKS = [8, 12, 13, 13, 13, 13, 26] as const;
export const HOLD_REASONS = [
	'Pending budget approval',
	'Facility census low',
	'Credentialing review',
] as const;
export const CLOSE_REASONS = [
	'Filled',
	'Cancelled by facility',
	'Filled internally',
	'Position no longer needed',
] as const;
export const REJECT_REASONS = [
	'Not a fit for the unit',
	'Insufficient recent experience',
	'Position filled',
] as const;

/** Per diem pools: the staffing pool belongs to a client (StaffingPoolClient). */
export const POOL_KINDS = ['Float Pool', 'Per Diem Pool', 'Resource Pool'] as const;
export const SHIFT_RATE_TYPES = ['Standard', 'Premium', 'Crisis', 'Holiday'] as const;
export const SHIFT_TYPES = ['Per Diem', 'Float', 'Incentive'] as const;
export const SHIFT_NOTES = [
	null,
	'Parking in garage B',
	'Report to charge nurse at start',
	'Badge pickup at security desk',
	'Floating to 4 West possible',
] as const;
